// The whole-step sweep of whole_step_sweep.h: each step one replacement in the PQ-tree; where the
// tree refuses one, the step's other holes tried in copies of the tree as it was before the step,
// with a few steps ahead, and the refusals before gone back to where none is taken.
#include "analyzer/packing/whole_step_sweep.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <utility>

#include "analyzer/packing/hole_guesses.h"
#include "analyzer/packing/pq_tree.h"

namespace tidepool::packing {
namespace {

// A step is split in two holes in every way where it has up to kMaxSplitEnding items ending (each
// split's ending items tried in a copy of the tree); with more, the splits are grown with the
// tree (add_grown_splits), each with up to kMaxGrownSplits ways to split the starting items.
// The starting items are matched by sums, up to 2 x kMaxHalfSide of them.
constexpr std::size_t kMaxSplitEnding = 14;
constexpr std::size_t kMaxGrownSplits = 256;
constexpr std::size_t kMaxHalfSide = 14;
// Guesses by sizes (this many at most) have their holes merged in every way where they have up
// to kMaxMergedHoles (52 ways for 5, 203 for 6).
constexpr int kMergedGuesses = 4;
constexpr std::size_t kMaxMergedHoles = 6;
// A choice at a refused step is judged by the steps taken whole after it, up to this many; of a
// step's candidates, the first kMaxLookedAhead that the tree takes are judged so, of the first
// kMaxTried.
constexpr std::size_t kLookAheadSteps = 1024;
constexpr int kMaxLookedAhead = 256;
constexpr std::size_t kMaxTried = 1024;
// The sweep gives up where more steps were refused than kMinRefusedSteps, plus one per
// kStepsPerRefusal steps swept (perfect:1000000:1 has 35 times where two holes meet in 500,468
// steps; instances whose times have many holes, as refill:N:SEED, are refused at most steps); and
// after kMaxBacktracks goes back to a refusal before, kept for the last kKeptRefusals.
constexpr int kMinRefusedSteps = 4;
constexpr std::size_t kStepsPerRefusal = 1024;
constexpr int kMaxBacktracks = 16;
constexpr std::size_t kKeptRefusals = 4;
// Splits into two holes that add up are counted over the steps of up to kMaxSplitFirstSide items
// a side. Where at most one step in kRareSplits has one (sizes of random bits, that add up by
// chance seldom: cuts on fine times), those steps are split first, the whole step their last
// choice. Where splits are common and sizes repeat (kRepeatedSizes items or more a size on
// average: grown:N:SEED), they add up by chance, and a step is split only where the tree refuses
// it whole. Where splits are common and sizes seldom repeat, the holes that add up are true ones:
// times have many holes (refill:N:SEED, cuts on coarse times), and the pass gives up at once.
constexpr std::size_t kRareSplits = 100;
constexpr std::size_t kRepeatedSizes = 4;
constexpr std::size_t kMaxSplitFirstSide = 8;
// The tree is copied every kMarkStride steps, to rebuild it before a refused step, and the last
// kKeptMarks copies kept; where a step is refused and its own choices do not take the steps after
// it, the steps where its ending items started (suspects) are looked at, kMaxSuspects at most.
constexpr std::size_t kMarkStride = 1024;
constexpr std::size_t kKeptMarks = 16;
constexpr int kMaxSuspects = 4;

// The subsets of a side of a step (neither empty nor all of it) by the sum of their sizes: each
// half's subsets summed once, and matched (meet in the middle); up to 2 x kMaxHalfSide items.
class SubsetSums {
 public:
  SubsetSums(const Problem& problem, const Items& side)
      : low_count_(side.size() / 2), all_((1u << side.size()) - 1) {
    const auto sums = [&](std::size_t from, std::size_t count) {
      std::vector<std::pair<Bytes, std::uint32_t>> out;
      for (std::uint32_t mask = 0; mask < (1u << count); ++mask) {
        Bytes total = 0;
        for (std::size_t b = 0; b < count; ++b)
          if (mask >> b & 1) total += problem.items[side[from + b]].size;
        out.emplace_back(total, mask);
      }
      return out;
    };
    low_ = sums(0, low_count_);
    high_ = sums(low_count_, side.size() - low_count_);
    std::ranges::sort(high_);
  }

  // The subsets adding up to `sum`, up to `limit`, as masks of the side.
  std::vector<std::uint32_t> adding_up(Bytes sum, std::size_t limit) const {
    std::vector<std::uint32_t> out;
    for (const auto& [low_sum, low_mask] : low_) {
      auto match = std::ranges::lower_bound(high_, std::pair(sum - low_sum, std::uint32_t{0}));
      for (; match != high_.end() && match->first == sum - low_sum; ++match) {
        const std::uint32_t mask = low_mask | match->second << low_count_;
        if (mask == 0 || mask == all_) continue;
        out.push_back(mask);
        if (out.size() == limit) return out;
      }
    }
    return out;
  }

 private:
  std::size_t low_count_;
  std::uint32_t all_;
  std::vector<std::pair<Bytes, std::uint32_t>> low_;
  std::vector<std::pair<Bytes, std::uint32_t>> high_;
};

// The two holes of `first` and `second` (a step's ending items split), with the step's starting
// items split every way that adds up, up to `limit` in all.
void add_splits(const Problem& problem, const Step& step, const SubsetSums& starting,
                const Items& first, const Items& second, std::vector<std::vector<Hole>>& out,
                std::size_t& limit) {
  for (const std::uint32_t mask : starting.adding_up(size_of(problem, first), limit)) {
    std::vector<Hole> holes = {{first, {}}, {second, {}}};
    for (std::size_t b = 0; b < step.starting.size(); ++b)
      holes[mask >> b & 1 ? 0 : 1].starting.push_back(step.starting[b]);
    out.push_back(std::move(holes));
    --limit;
  }
}

// The splits of a step into two holes whose sizes add up and whose ending items `takes` (the tree
// can make each hole's ending items consecutive), the first hole holding the step's first ending
// item; up to kMaxSplitEnding ending and 2 x kMaxHalfSide starting items, and `limit` splits.
template <typename Takes>
void add_two_hole_splits(const Problem& problem, const Step& step, Takes takes,
                         std::vector<std::vector<Hole>>& out, std::size_t limit = SIZE_MAX) {
  const Items& ending = step.ending;
  if (ending.size() < 2 || step.starting.size() < 2) return;
  if (ending.size() > kMaxSplitEnding || step.starting.size() > 2 * kMaxHalfSide) return;
  const SubsetSums starting(problem, step.starting);
  for (std::uint32_t mask = 1; mask < (1u << ending.size()) - 1 && limit > 0; mask += 2) {
    Items first;
    Items second;
    for (std::size_t b = 0; b < ending.size(); ++b)
      (mask >> b & 1 ? first : second).push_back(ending[b]);
    if (starting.adding_up(size_of(problem, first), 1).empty()) continue;
    if (takes(first, second)) add_splits(problem, step, starting, first, second, out, limit);
  }
}

// Where a step has too many ending items to split in every way: from each ending item, a hole's
// ending items grown item by item (in the step's order) with those that `takes` beside them, the
// other ending items the second hole where `takes` both; the starting items split by sums that
// match, up to kMaxGrownSplits ways each.
template <typename Takes>
void add_grown_splits(const Problem& problem, const Step& step, Takes takes,
                      std::vector<std::vector<Hole>>& out) {
  if (step.ending.size() < 2 || step.starting.size() < 2) return;
  if (step.starting.size() > 2 * kMaxHalfSide) return;
  const SubsetSums starting(problem, step.starting);
  std::vector<Items> firsts;
  for (const std::uint32_t seed : step.ending) {
    Items first = {seed};
    Items second;
    for (const std::uint32_t other : step.ending) {
      if (other == seed) continue;
      first.push_back(other);
      if (!takes(first, {})) {
        first.pop_back();
        second.push_back(other);
      }
    }
    std::ranges::sort(first);
    if (second.empty() || std::ranges::find(firsts, first) != firsts.end()) continue;
    firsts.push_back(first);
    std::size_t limit = kMaxGrownSplits;
    if (takes(first, second)) add_splits(problem, step, starting, first, second, out, limit);
  }
}

// `guess`'s holes merged in every way into two or more, fewest first; the guess alone where it
// has more than kMaxMergedHoles.
void add_merged(const std::vector<Hole>& guess, std::vector<std::vector<Hole>>& out) {
  if (guess.size() > kMaxMergedHoles) {
    out.push_back(guess);
    return;
  }
  std::vector<std::vector<std::uint8_t>> parts;  // each hole's part, a restricted growth string
  std::vector<std::uint8_t> part(guess.size(), 0);
  const auto grow = [&](auto& self, std::size_t at, std::uint8_t count) -> void {
    if (at == part.size()) {
      if (count > 1) parts.push_back(part);
      return;
    }
    for (std::uint8_t p = 0; p <= count; ++p) {
      part[at] = p;
      self(self, at + 1, std::max<std::uint8_t>(count, p + 1));
    }
  };
  grow(grow, 1, 1);
  std::ranges::stable_sort(parts, {}, [](const auto& p) { return std::ranges::max(p); });
  for (const std::vector<std::uint8_t>& p : parts) {
    std::vector<Hole> merged(std::ranges::max(p) + 1u);
    for (std::size_t h = 0; h < guess.size(); ++h) {
      Hole& into = merged[p[h]];
      into.ending.insert(into.ending.end(), guess[h].ending.begin(), guess[h].ending.end());
      into.starting.insert(into.starting.end(), guess[h].starting.begin(), guess[h].starting.end());
    }
    out.push_back(std::move(merged));
  }
}

// A refused step: the tree before it, and its other holes.
struct Refusal {
  std::size_t step = 0;
  PQTree before;
  std::size_t replaced = 0;  // the replacements made before the step
  std::vector<std::vector<Hole>> candidates;
  std::vector<char> tried;
};

class WholeStepSweep {
 public:
  WholeStepSweep(const Problem& problem, const Steps& steps, Deadline deadline)
      : problem_(problem),
        steps_(steps.steps),
        deadline_(deadline),
        tree_(problem.items.size(), steps.live_first),
        started_at_(problem.items.size(), 0) {
    replaced_.reserve(steps_.size());
    may_split_.resize(steps_.size());
    std::size_t count = 0;  // steps that split; the count stops once splits are not rare
    std::vector<std::vector<Hole>> found;
    for (std::size_t k = 0; k < steps_.size(); ++k) {
      for (const std::uint32_t i : steps_[k].starting) started_at_[i] = k;
      if (count * kRareSplits > steps_.size()) continue;
      if (steps_[k].ending.size() > kMaxSplitFirstSide ||
          steps_[k].starting.size() > kMaxSplitFirstSide) {
        continue;
      }
      found.clear();
      const auto any = [](const Items&, const Items&) { return true; };
      add_two_hole_splits(problem_, steps_[k], any, found, 1);
      may_split_[k] = !found.empty();
      count += may_split_[k];
    }
    splits_rare_ = count * kRareSplits <= steps_.size();
    if (splits_rare_) return;  // whether sizes repeat matters only where splits are common
    std::vector<Bytes> sizes;
    sizes.reserve(problem.items.size());
    for (const Item& item : problem.items) sizes.push_back(item.size);
    std::ranges::sort(sizes);
    const auto distinct = static_cast<std::size_t>(
        std::ranges::distance(sizes.begin(), std::ranges::unique(sizes).begin()));
    sizes_repeat_ = distinct * kRepeatedSizes <= sizes.size();
  }

  // The replacements that take every step, or none.
  std::optional<std::vector<Replaced>> run() {
    if (!splits_rare_ && !sizes_repeat_) return std::nullopt;
    int refused = 0;
    int backtracks = 0;
    for (std::size_t k = 0; k < steps_.size();) {
      if (deadline_.passed()) return std::nullopt;
      if (k % kMarkStride == 0) mark(k);
      const Step& step = steps_[k];
      const bool split_first = splits_rare_ && may_split_[k];
      if (!split_first) {
        if (std::optional<PQTree::Run> run = tree_.replace(step.ending, step.starting)) {
          replaced_.push_back({step.time, std::move(*run), step.starting});
          ++k;
          continue;
        }
        if (++refused > kMinRefusedSteps + static_cast<int>(k / kStepsPerRefusal))
          return std::nullopt;
      }
      Refusal here = refusal_at(k, split_first ? std::optional(tree_.compacted()) : std::nullopt);
      std::optional<Choice> choice = choose(here, k);
      if (!choice || choice->reach < kLookAheadSteps) {
        if (std::optional<std::pair<Refusal, Choice>> other = suspect_choice(k)) {
          if (!choice || other->second.reach > choice->reach) {
            here = std::move(other->first);
            choice = std::move(other->second);
          }
        }
      }
      if (choice) {
        std::erase_if(refusals_, [&](const Refusal& at) { return at.step >= here.step; });
        refusals_.push_back(std::move(here));
        if (refusals_.size() > kKeptRefusals) refusals_.erase(refusals_.begin());
        k = take(refusals_.back(), std::move(*choice));
        continue;
      }
      // None here: the next choice at the refusals before, the latest first.
      for (;;) {
        if (refusals_.empty() || ++backtracks > kMaxBacktracks || deadline_.passed())
          return std::nullopt;
        if ((choice = choose(refusals_.back(), refusals_.back().step))) {
          k = take(refusals_.back(), std::move(*choice));
          break;
        }
        refusals_.pop_back();
      }
    }
    return std::move(replaced_);
  }

  const PQTree& tree() const { return tree_; }

 private:
  struct Choice {
    PQTree tree;
    std::vector<Replaced> runs;
    std::size_t reach = 0;
  };

  // Takes a choice at a refusal: returns the step to go on from.
  std::size_t take(const Refusal& at, Choice choice) {
    tree_ = std::move(choice.tree);
    replaced_.resize(at.replaced);
    for (Replaced& run : choice.runs) replaced_.push_back(std::move(run));
    std::erase_if(marks_, [&](const Mark& mark) { return mark.step > at.step; });
    mark(at.step + 1);
    return at.step + 1;
  }

  // Keeps the tree before step k (the last kKeptMarks).
  void mark(std::size_t k) {
    if (!marks_.empty() && marks_.back().step == k) return;
    marks_.push_back({k, tree_.compacted(), replaced_.size()});
    if (marks_.size() > kKeptMarks) marks_.erase(marks_.begin());
  }

  // The tree before step j, rebuilt from a mark; none if the marks kept are all after it.
  std::optional<PQTree> tree_before(std::size_t j, std::size_t& replaced) const {
    const auto at = std::ranges::find_if(marks_.rbegin(), marks_.rend(),
                                         [&](const Mark& mark) { return mark.step <= j; });
    if (at == marks_.rend()) return std::nullopt;
    PQTree tree = at->tree.compacted();
    replaced = at->replaced;
    for (; replaced < replaced_.size() && replaced_[replaced].time < steps_[j].time; ++replaced)
      tree.replace(replaced_[replaced].run.order, replaced_[replaced].starting);
    return tree;
  }

  // Step k's other holes, with the tree before it (`before`, or rebuilt); with `before`, the
  // whole step too, last.
  Refusal refusal_at(std::size_t k, std::optional<PQTree> before) {
    const bool whole_last = before.has_value();
    std::size_t replaced = replaced_.size();
    if (!before) before = tree_before(k, replaced);
    Refusal at{k, std::move(*before), replaced, {}, {}};
    const Items& starting = steps_[k].starting;
    // Whether the tree before the step can make `first`'s items consecutive, then `second`'s
    // (where not empty); past the deadline, no more.
    const auto takes = [&](const Items& first, const Items& second) {
      if (deadline_.passed()) return false;
      PQTree copy = at.before.compacted();
      return copy.replace(first, std::span(starting).first(1)) &&
             (second.empty() || copy.replace(second, std::span(starting).subspan(1, 1)));
    };
    add_two_hole_splits(problem_, steps_[k], takes, at.candidates, kMaxTried);
    if (steps_[k].ending.size() > kMaxSplitEnding)
      add_grown_splits(problem_, steps_[k], takes, at.candidates);
    Guesses guesses(problem_, steps_[k], k + 1);
    std::optional<std::vector<Hole>> guess = guesses.first();
    for (int tries = 0; guess && tries < kMergedGuesses; ++tries, guess = guesses.next())
      add_merged(*guess, at.candidates);
    if (whole_last) at.candidates.push_back({Hole{steps_[k].ending, steps_[k].starting}});
    at.tried.assign(at.candidates.size(), 0);
    return at;
  }

  // Where step k is refused and its own choices do not take the steps after it: the steps where
  // its ending items started, taken whole (two holes met there, apart, and the tree took them as
  // one), the latest first: the first choice there with which the tree takes step k and the
  // kLookAheadSteps after it, else none.
  std::optional<std::pair<Refusal, Choice>> suspect_choice(std::size_t k) {
    std::vector<std::size_t> suspects;
    for (const std::uint32_t i : steps_[k].ending) suspects.push_back(started_at_[i]);
    std::ranges::sort(suspects, std::greater{});
    const auto [first, last] = std::ranges::unique(suspects);
    suspects.erase(first, last);
    int tried = 0;
    for (const std::size_t j : suspects) {
      if (j >= k || tried == kMaxSuspects) break;
      if (std::ranges::find(refusals_, j, &Refusal::step) != refusals_.end()) continue;
      if (std::ranges::none_of(marks_, [&](const Mark& mark) { return mark.step <= j; })) break;
      ++tried;
      Refusal at = refusal_at(j, std::nullopt);
      if (std::optional<Choice> choice = choose(at, k); choice && choice->reach == kLookAheadSteps)
        return std::pair(std::move(at), std::move(*choice));
    }
    return std::nullopt;
  }

  // The candidate not tried yet that the tree takes, with the most steps after it taken whole up
  // to kLookAheadSteps after step `until` (the first among equals); none if the tree takes none.
  std::optional<Choice> choose(Refusal& at, std::size_t until) {
    std::optional<Choice> best;
    std::size_t best_index = 0;
    const std::vector<Hole>* refused = nullptr;  // the last candidate refused
    int looked_ahead = 0;
    for (std::size_t c = 0; c < std::min(at.candidates.size(), kMaxTried); ++c) {
      if (at.tried[c]) continue;
      if (deadline_.passed()) break;
      const std::vector<Hole>& holes = at.candidates[c];
      // Whether the tree takes a candidate depends on its ending items alone.
      if (refused && std::ranges::equal(holes, *refused, {}, &Hole::ending, &Hole::ending)) {
        at.tried[c] = 1;
        continue;
      }
      Choice choice{at.before.compacted(), {}, 0};
      for (const Hole& hole : holes) {
        if (hole.ending.empty() || hole.starting.empty()) break;
        std::optional<PQTree::Run> run = choice.tree.replace(hole.ending, hole.starting);
        if (!run) break;
        choice.runs.push_back({steps_[at.step].time, std::move(*run), hole.starting});
      }
      if (choice.runs.size() < holes.size()) {
        at.tried[c] = 1;
        refused = &holes;
        continue;
      }
      if (looked_ahead++ == kMaxLookedAhead) break;
      choice.reach = reach_after(choice.tree, at.step, until);
      const bool all = choice.reach == kLookAheadSteps;
      if (!best || choice.reach > best->reach) {
        best = std::move(choice);
        best_index = c;
      }
      if (all) break;
    }
    if (best) at.tried[best_index] = 1;
    return best;
  }

  // How many of the steps after `until` (up to kLookAheadSteps) a copy of `tree` before step
  // k + 1 takes whole; 0 if it does not reach them.
  std::size_t reach_after(const PQTree& tree, std::size_t k, std::size_t until) const {
    PQTree ahead = tree.compacted();
    const std::size_t end = std::min(steps_.size(), until + 1 + kLookAheadSteps);
    std::size_t j = k + 1;
    for (; j < end; ++j) {
      if (!ahead.replace(steps_[j].ending, steps_[j].starting)) break;
    }
    // A sweep that ends within the look-ahead reaches as far as any.
    if (j == steps_.size()) return kLookAheadSteps;
    return j > until ? j - until - 1 : 0;
  }

  struct Mark {
    std::size_t step = 0;
    PQTree tree;
    std::size_t replaced = 0;
  };

  const Problem& problem_;
  const std::vector<Step>& steps_;
  Deadline deadline_;
  PQTree tree_;
  std::vector<Replaced> replaced_;
  std::vector<Mark> marks_;  // the tree before some steps on the path taken, the latest last
  std::vector<Refusal> refusals_;
  std::vector<std::size_t> started_at_;  // per item, the step it starts at
  // Per step, whether it splits into two holes whose sizes add up; where few do (sizes of many
  // values, that add up by chance seldom), those are split first.
  std::vector<char> may_split_;
  bool splits_rare_ = false;
  // Whether sizes repeat (few values), so that they add up by chance.
  bool sizes_repeat_ = false;
};

}  // namespace

std::optional<std::vector<Bytes>> sweep_whole_steps(const Problem& problem,
                                                    const Timeline& timeline, const Steps& steps,
                                                    Deadline deadline) {
  WholeStepSweep sweep(problem, steps, deadline);
  std::optional<std::vector<Replaced>> replaced = sweep.run();
  if (!replaced) return std::nullopt;
  return offsets_of(problem, timeline, sweep.tree(), *replaced);
}

}  // namespace tidepool::packing
