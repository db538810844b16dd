// The sweep of hole_sweep.h: the holes of every time (the smallest groups of up to three items a
// side whose sizes add up alike, then holes.h for what they leave), each hole a replacement in
// the PQ-tree, with a checkpoint where a guess was contested to go back to; then the offsets,
// from the last time back.
#include "analyzer/packing/hole_sweep.h"

#include <algorithm>
#include <random>
#include <unordered_map>
#include <utility>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/holes.h"
#include "analyzer/packing/pq_tree.h"

namespace tidepool::packing {
namespace {

// Holes are looked for first among groups of up to three items a side (distinct sizes tell
// them): pairs up to kMaxPairSide items a side, triples up to kMaxTripleSide (about 40,000 groups
// at most). More than 16 items a side left over, up to kMaxQuadSide, are one hole (a hole of many
// pieces of a cut instance), or on a second guess matched again with groups of four too
// (refill:10000:7: a time whose 20 and 17 items left were not one hole).
constexpr std::size_t kMaxPairSide = 280;
constexpr std::size_t kMaxTripleSide = 64;
constexpr std::size_t kMaxQuadSide = 40;
// Where the holes of a time are contested, this many orders of its items are tried for others.
constexpr int kGuessTries = 8;
// A sweep whose tree cannot take a hole goes back to a time whose holes were contested (the
// latest that placed one of the hole's items, else the latest) and takes its next guess, this
// many times at most.
constexpr int kMaxBacktracks = 16;

using Items = std::vector<std::uint32_t>;

struct Hole {
  Items ending;
  Items starting;
};

// The groups of up to three items of `side`: singles, then pairs, then triples; with `quads`,
// then groups of four.
std::vector<Items> small_groups(const Items& side, bool quads = false) {
  std::vector<Items> groups;
  for (const std::uint32_t a : side) groups.push_back({a});
  if (side.size() > kMaxPairSide) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) groups.push_back({side[a], side[b]});
  }
  if (side.size() > kMaxTripleSide) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) {
      for (std::size_t c = b + 1; c < side.size(); ++c)
        groups.push_back({side[a], side[b], side[c]});
    }
  }
  if (!quads) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) {
      for (std::size_t c = b + 1; c < side.size(); ++c) {
        for (std::size_t d = c + 1; d < side.size(); ++d)
          groups.push_back({side[a], side[b], side[c], side[d]});
      }
    }
  }
  return groups;
}

std::vector<Hole> small_holes(const Problem& problem, const Items& ending, const Items& starting,
                              bool quads, bool& contested, Hole& rest);

// The holes at one time: small_holes' groups of up to three items a side, and what they leave
// split by holes.h if few enough (holes.h alone misses large holes of one or two items among
// small sizes: it matches sums in ascending order and stops at 4,096 matches); more items are one
// hole, or with `quads`, up to kMaxQuadSide a side, matched again with groups of four first.
// `contested`: whether other holes would have added up as well (set, never cleared), or a rest
// of that size was left as one hole.
std::vector<Hole> holes_at(const Problem& problem, const Items& ending, const Items& starting,
                           bool& contested, bool quads = false) {
  Hole rest;
  std::vector<Hole> holes = small_holes(problem, ending, starting, false, contested, rest);
  const auto larger_than = [&](std::size_t most) {
    return rest.ending.size() > most || rest.starting.size() > most;
  };
  if (larger_than(kMaxHoleSide) && !larger_than(kMaxQuadSide)) {
    contested = true;
    if (quads) {
      Hole left;
      for (Hole& hole : small_holes(problem, rest.ending, rest.starting, true, contested, left))
        holes.push_back(std::move(hole));
      rest = std::move(left);
    }
  }
  if (rest.ending.empty() && rest.starting.empty()) return holes;
  std::optional<HoleSplit> split;
  if (!larger_than(kMaxHoleSide)) {
    std::vector<Bytes> ends, starts;
    for (const std::uint32_t i : rest.ending) ends.push_back(problem.items[i].size);
    for (const std::uint32_t i : rest.starting) starts.push_back(problem.items[i].size);
    split = split_into_holes(ends, starts);
    if (!split) {
      split = split_into_holes(ends, starts, Ambiguity::first_found);
      contested = contested || split.has_value();
    }
  }
  if (!split) {
    holes.push_back(std::move(rest));
    return holes;
  }
  const std::size_t first = holes.size();
  holes.resize(first + split->holes);
  for (std::size_t k = 0; k < rest.ending.size(); ++k)
    holes[first + split->ending[k]].ending.push_back(rest.ending[k]);
  for (std::size_t k = 0; k < rest.starting.size(); ++k)
    holes[first + split->starting[k]].starting.push_back(rest.starting[k]);
  return holes;
}

// The smallest matching groups of up to three items a side (four with `quads`) first, then in the
// order of the items, each kept if none of its items is in one kept before (contested if one as
// small was); the items left over in `rest`.
std::vector<Hole> small_holes(const Problem& problem, const Items& ending, const Items& starting,
                              bool quads, bool& contested, Hole& rest) {
  std::vector<Hole> holes;
  const auto sum = [&](const Items& group) {
    Bytes total = 0;
    for (const std::uint32_t i : group) total += problem.items[i].size;
    return total;
  };
  const std::vector<Items> ending_groups = small_groups(ending, quads);
  const std::vector<Items> starting_groups = small_groups(starting, quads);
  std::unordered_multimap<Bytes, std::size_t> starting_by_sum;
  for (std::size_t g = 0; g < starting_groups.size(); ++g)
    starting_by_sum.emplace(sum(starting_groups[g]), g);
  std::vector<std::pair<std::size_t, std::size_t>> matches;  // (ending group, starting group)
  for (std::size_t g = 0; g < ending_groups.size(); ++g) {
    const auto [from, to] = starting_by_sum.equal_range(sum(ending_groups[g]));
    std::vector<std::size_t> found;
    for (auto it = from; it != to; ++it) found.push_back(it->second);
    std::ranges::sort(found);
    for (const std::size_t s : found) matches.emplace_back(g, s);
  }
  const auto items = [&](const std::pair<std::size_t, std::size_t>& match) {
    return ending_groups[match.first].size() + starting_groups[match.second].size();
  };
  std::ranges::stable_sort(matches, {}, items);
  std::unordered_map<std::uint32_t, std::size_t> taken_by;  // item -> the items of its match
  for (const auto& match : matches) {
    const Items& a = ending_groups[match.first];
    const Items& b = starting_groups[match.second];
    bool free = true;
    for (const Items* group : {&a, &b}) {
      for (const std::uint32_t i : *group) {
        const auto taken = taken_by.find(i);
        if (taken == taken_by.end()) continue;
        free = false;
        contested = contested || taken->second == items(match);
      }
    }
    if (!free) continue;
    for (const std::uint32_t i : a) taken_by[i] = items(match);
    for (const std::uint32_t i : b) taken_by[i] = items(match);
    holes.push_back({a, b});
  }
  for (const std::uint32_t i : ending) {
    if (!taken_by.contains(i)) rest.ending.push_back(i);
  }
  for (const std::uint32_t i : starting) {
    if (!taken_by.contains(i)) rest.starting.push_back(i);
  }
  return holes;
}

// The items that end and start at one time.
struct Step {
  Time time = 0;
  Items ending;
  Items starting;
};

// A guess of a step's holes, and where it was contested, the means to guess others: a large rest
// split by groups of four, the items in other orders (other groups found first), up to
// kGuessTries guesses in all, each different guess once.
class Guesses {
 public:
  Guesses(const Problem& problem, const Step& step, std::uint64_t seed)
      : problem_(problem), step_(step), random_(seed) {
    bool contested = false;
    first_ = holes_at(problem, step.ending, step.starting, contested);
    if (contested) seen_.push_back(key(first_));
  }

  bool contested() const { return !seen_.empty(); }
  std::vector<Hole>& first() { return first_; }

  // Another guess, if the orders left give one: first the large rest matched with groups of
  // four, then the items in other orders.
  std::optional<std::vector<Hole>> next() {
    Items ending = step_.ending;
    Items starting = step_.starting;
    while (contested() && tries_ < kGuessTries) {
      const bool quads = tries_ == 1;
      ++tries_;
      if (!quads) {
        std::ranges::shuffle(ending, random_);
        std::ranges::shuffle(starting, random_);
      }
      bool contested_again = false;
      std::vector<Hole> holes = holes_at(problem_, ending, starting, contested_again, quads);
      std::vector<std::pair<Items, Items>> guess = key(holes);
      if (std::ranges::find(seen_, guess) != seen_.end()) continue;
      seen_.push_back(std::move(guess));
      return holes;
    }
    return std::nullopt;
  }

 private:
  // The holes as sorted item lists, to tell guesses apart.
  static std::vector<std::pair<Items, Items>> key(const std::vector<Hole>& holes) {
    std::vector<std::pair<Items, Items>> sorted;
    for (const Hole& hole : holes) {
      sorted.emplace_back(hole.ending, hole.starting);
      std::ranges::sort(sorted.back().first);
      std::ranges::sort(sorted.back().second);
    }
    std::ranges::sort(sorted);
    return sorted;
  }

  const Problem& problem_;
  const Step& step_;
  std::mt19937_64 random_;
  std::vector<Hole> first_;
  std::vector<std::vector<std::pair<Items, Items>>> seen_;
  int tries_ = 1;
};

// A hole's ending items as the tree ordered them, the leaves beside them, and what took their
// place.
struct Replaced {
  Time time = 0;
  PQTree::Run run;
  Items starting;
};

}  // namespace

std::optional<std::vector<Bytes>> sweep_holes(const Problem& problem, const Timeline& timeline,
                                              Deadline deadline) {
  const std::size_t n = problem.items.size();
  if (n == 0) return std::vector<Bytes>{};
  const auto start = [&](std::uint32_t i) { return problem.items[i].live.front().lower; };
  const auto end = [&](std::uint32_t i) { return problem.items[i].live.front().upper; };
  // The items by start and by end; the tree begins with those live first.
  std::vector<std::uint32_t> by_start(n);
  for (std::uint32_t i = 0; i < n; ++i) by_start[i] = i;
  std::vector<std::uint32_t> by_end = by_start;
  std::ranges::sort(by_start, {}, [&](std::uint32_t i) { return std::pair(start(i), i); });
  std::ranges::sort(by_end, {}, [&](std::uint32_t i) { return std::pair(end(i), i); });
  const Time first = start(by_start.front());
  Items live_first;
  for (const std::uint32_t i : by_start) {
    if (start(i) != first) break;
    live_first.push_back(i);
  }

  std::vector<Step> steps;
  for (std::size_t next_start = live_first.size(), next_end = 0; next_start < n;) {
    Step step{start(by_start[next_start]), {}, {}};
    for (; next_end < n && end(by_end[next_end]) <= step.time; ++next_end) {
      if (end(by_end[next_end]) < step.time) return std::nullopt;  // a gap: not without slack
      step.ending.push_back(by_end[next_end]);
    }
    for (; next_start < n && start(by_start[next_start]) == step.time; ++next_start) {
      step.starting.push_back(by_start[next_start]);
    }
    steps.push_back(std::move(step));
  }

  // The sweep, with a checkpoint (the tree as it was) at every step whose holes were contested.
  struct Checkpoint {
    std::size_t step = 0;
    PQTree tree;
    std::size_t replaced = 0;
    Guesses guesses;
  };
  PQTree tree(n, live_first);
  std::vector<Replaced> replaced;
  std::vector<Checkpoint> checkpoints;
  std::vector<std::int32_t> placed_at(n, -1);  // per item: the checkpoint whose guess placed it
  std::optional<std::vector<Hole>> resumed;    // the next guess of the last checkpoint
  int backtracks = 0;
  for (std::size_t k = 0; k < steps.size();) {
    if (deadline.passed()) return std::nullopt;
    std::vector<Hole> holes;
    std::int32_t checkpoint = -1;
    if (resumed) {
      holes = std::move(*resumed);
      resumed.reset();
      checkpoint = static_cast<std::int32_t>(checkpoints.size()) - 1;
    } else {
      Guesses guesses(problem, steps[k], k + 1);
      holes = guesses.first();
      if (guesses.contested()) {
        checkpoints.push_back({k, tree.compacted(), replaced.size(), std::move(guesses)});
        checkpoint = static_cast<std::int32_t>(checkpoints.size()) - 1;
      }
    }
    const Items* failed = nullptr;
    for (Hole& hole : holes) {
      std::optional<PQTree::Run> run;
      if (!hole.ending.empty() && !hole.starting.empty())
        run = tree.replace(hole.ending, hole.starting);
      if (!run) {
        failed = &hole.ending;
        break;
      }
      for (const std::uint32_t i : hole.starting) placed_at[i] = checkpoint;
      replaced.push_back({steps[k].time, std::move(*run), std::move(hole.starting)});
    }
    if (!failed) {
      ++k;
      continue;
    }
    // Another guess of this step's holes, else back to the latest checkpoint that placed one of
    // the hole's items (else the latest) that has another guess.
    std::int32_t back = checkpoint;
    if (back < 0) {
      for (const std::uint32_t i : *failed) back = std::max(back, placed_at[i]);
    }
    if (back < 0) back = static_cast<std::int32_t>(checkpoints.size()) - 1;
    for (; back >= 0 && ++backtracks <= kMaxBacktracks; --back) {
      resumed = checkpoints[back].guesses.next();
      if (resumed) break;
    }
    if (!resumed) return std::nullopt;
    const Checkpoint& to = checkpoints[back];
    for (std::size_t j = to.step; j <= k; ++j) {
      for (const std::uint32_t i : steps[j].starting) placed_at[i] = -1;
    }
    tree = to.tree.compacted();
    replaced.resize(to.replaced);
    k = to.step;
    while (checkpoints.size() > static_cast<std::size_t>(back) + 1) checkpoints.pop_back();
  }
  // The items live to the end, in one order from 0; then each replaced run where its starting
  // items lie, the way round that keeps it beside a neighbour that outlived it.
  std::vector<Bytes> offsets(n, kUnplaced);
  Bytes top = 0;
  for (const std::uint32_t i : tree.frontier()) {
    offsets[i] = top;
    top += problem.items[i].size;
  }
  if (top != timeline.peak()) return std::nullopt;
  for (auto r = replaced.rbegin(); r != replaced.rend(); ++r) {
    Bytes low = offsets[r->starting.front()];
    for (const std::uint32_t i : r->starting) low = std::min(low, offsets[i]);
    const auto outlives = [&](std::uint32_t i) { return end(i) > r->time; };
    bool mirrored = false;
    if (const auto before = std::ranges::find_if(r->run.before, outlives);
        before != r->run.before.end()) {
      mirrored = offsets[*before] > low;
    } else if (const auto after = std::ranges::find_if(r->run.after, outlives);
               after != r->run.after.end()) {
      mirrored = offsets[*after] < low;
    }
    if (mirrored) std::ranges::reverse(r->run.order);
    for (const std::uint32_t i : r->run.order) {
      offsets[i] = low;
      low += problem.items[i].size;
    }
  }
  if (!check(problem, {offsets, timeline.peak()}).valid) return std::nullopt;
  return offsets;
}

}  // namespace tidepool::packing
