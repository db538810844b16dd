// The sweep of hole_sweep.h: each time's holes guessed (hole_guesses.h), each hole a replacement
// in the PQ-tree; where the tree refuses a hole, other guesses of that time or of the times where
// the refused hole's items started (StepSearch, step_search.h, once the guesses are spent), from
// a checkpoint there; where that fails, the whole-step pass (whole_step_sweep.h). The offsets
// follow from the replacements (sweep_steps.h).
#include "analyzer/packing/hole_sweep.h"

#include <algorithm>
#include <utility>

#include "analyzer/packing/hole_guesses.h"
#include "analyzer/packing/pq_tree.h"
#include "analyzer/packing/step_search.h"
#include "analyzer/packing/sweep_steps.h"
#include "analyzer/packing/whole_step_sweep.h"

namespace tidepool::packing {
namespace {

// A sweep whose tree cannot take a hole takes another guess of that step or of one before (the
// sweep's loop says which), this many times at most.
constexpr int kMaxBacktracks = 16;
// Where the tree refuses a step's holes, the search over its groups with the tree (StepSearch)
// may try this many replacements for each other guess.
constexpr int kStepSearchBudget = 1024;
// Covers that were guessed before are passed over, this many at most for one new.
constexpr int kMaxCoversSkipped = 8;
// Going back stops once the sweep's work (replacements in the tree, the searches' included) is
// kGoingBackShare times what reaching the furthest step took, plus kMinGoingBackWork: refilled
// instances are refused late and mended with a few thousand replacements (refill:10000:8 is
// refused at a tenth of its steps); cut instances on coarse times are refused within a few steps
// and their guesses are seldom mended (up to a second spent for nothing at 2,000 items without
// this). Counted in work, not seconds, so that a slower machine finds the same packing.
constexpr std::int64_t kGoingBackShare = 4;
constexpr std::int64_t kMinGoingBackWork = 1024;

// Each step's holes guessed from sizes, mended where the tree refuses them.
std::optional<std::vector<Bytes>> sweep_guessed_holes(const Problem& problem,
                                                      const Timeline& timeline, const Steps& all,
                                                      Deadline deadline) {
  const std::size_t n = problem.items.size();
  const Items& live_first = all.live_first;
  const std::vector<Step>& steps = all.steps;

  // The sweep keeps a checkpoint at every step whose guess was contested or refused, or that it
  // went back to: the tree before the step, and its other guesses: those of Guesses, then covers
  // that StepSearch finds with the items of the holes refused (at this step or later) first,
  // each different guess once.
  struct Checkpoint {
    std::size_t step = 0;
    PQTree tree;
    std::size_t replaced = 0;
    Guesses guesses;
    std::vector<GuessKey> seen;
    GuessKey current;  // the guess taken now
    Items first;       // the items of refused holes, the latest first
    std::optional<StepSearch> search;
  };
  std::int64_t work = 0;  // replacements in the tree so far, the searches' included
  const auto next_guess = [&](Checkpoint& at,
                              const Hole& refused) -> std::optional<std::vector<Hole>> {
    const Step& step = steps[at.step];
    Items hint;  // the refused hole's items that end or start at this step
    for (const Items* side : {&refused.ending, &refused.starting}) {
      for (const std::uint32_t i : *side) {
        if (std::ranges::find(step.ending, i) != step.ending.end() ||
            std::ranges::find(step.starting, i) != step.starting.end()) {
          hint.push_back(i);
        }
      }
    }
    at.first.insert(at.first.begin(), hint.begin(), hint.end());
    const auto take = [&](std::vector<Hole> guess) {
      at.current = guess_key(guess);
      at.seen.push_back(at.current);
      return guess;
    };
    while (std::optional<std::vector<Hole>> guess = at.guesses.next()) {
      if (std::ranges::find(at.seen, guess_key(*guess)) == at.seen.end())
        return take(std::move(*guess));
    }
    if (hint.empty()) return std::nullopt;
    if (!at.search) at.search.emplace(problem, step);
    int budget = kStepSearchBudget;
    for (int skip = 0; skip < kMaxCoversSkipped && budget > 0; ++skip) {
      const int before = budget;
      std::optional<std::vector<Hole>> cover =
          at.search->run(at.tree, at.first, budget, skip, deadline);
      work += before - budget;
      if (!cover) return std::nullopt;
      const GuessKey guess = guess_key(*cover);
      if (std::ranges::find(at.seen, guess) == at.seen.end() &&
          regrouped(guess, at.current, hint)) {
        return take(std::move(*cover));
      }
    }
    return std::nullopt;
  };
  PQTree tree(n, live_first);
  std::vector<Replaced> replaced;
  std::vector<Checkpoint> checkpoints;
  std::vector<std::int32_t> started_at(n, -1);  // per item: the step it starts at
  for (std::size_t j = 0; j < steps.size(); ++j) {
    for (const std::uint32_t i : steps[j].starting) started_at[i] = static_cast<std::int32_t>(j);
  }
  // A checkpoint at step j, which has none: the tree rebuilt from the latest checkpoint before
  // (or the start) by the replacements made since.
  const auto checkpoint_at = [&](std::size_t j, const GuessKey& taken) {
    PQTree rebuilt(n, live_first);
    std::size_t r = 0;
    for (auto at = checkpoints.rbegin(); at != checkpoints.rend(); ++at) {
      if (at->step < j) {
        rebuilt = at->tree.compacted();
        r = at->replaced;
        break;
      }
    }
    for (; r < replaced.size() && replaced[r].time < steps[j].time; ++r) {
      rebuilt.replace(replaced[r].run.order, replaced[r].starting);
      ++work;
    }
    return Checkpoint{j, std::move(rebuilt), r, Guesses(problem, steps[j], j + 1), {taken}, taken};
  };
  // The holes replaced at step j.
  const auto taken_at = [&](std::size_t j) {
    std::vector<Hole> taken;
    const auto from = std::ranges::find(replaced, steps[j].time, &Replaced::time);
    for (auto r = from; r != replaced.end() && r->time == steps[j].time; ++r)
      taken.push_back({r->run.order, r->starting});
    return taken;
  };
  std::optional<std::vector<Hole>> resumed;  // the next guess of the last checkpoint
  int backtracks = 0;
  // Going back is worth a few times what getting to the furthest step took: where the sweep fails
  // early (ambiguous holes from the start), it ends early.
  std::size_t furthest = 0;
  std::int64_t furthest_work = 0;  // when it was first reached
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
        const GuessKey guessed = guess_key(holes);
        checkpoints.push_back(
            {k, tree.compacted(), replaced.size(), std::move(guesses), {guessed}, guessed});
        checkpoint = static_cast<std::int32_t>(checkpoints.size()) - 1;
      }
    }
    // The holes replaced in the tree, up to the first it refuses.
    std::size_t applied = 0;
    std::optional<Hole> failed;
    for (; applied < holes.size(); ++applied) {
      Hole& hole = holes[applied];
      std::optional<PQTree::Run> run;
      if (!hole.ending.empty() && !hole.starting.empty())
        run = tree.replace(hole.ending, hole.starting);
      ++work;
      if (!run) {
        failed = hole;
        break;
      }
      replaced.push_back({steps[k].time, std::move(*run), std::move(hole.starting)});
    }
    if (failed && checkpoint < 0) {
      std::vector<Hole> guessed = taken_at(k);  // those replaced, then the refused one and the rest
      guessed.insert(guessed.end(), holes.begin() + static_cast<std::ptrdiff_t>(applied),
                     holes.end());
      checkpoints.push_back(checkpoint_at(k, guess_key(guessed)));
      checkpoint = static_cast<std::int32_t>(checkpoints.size()) - 1;
    }
    if (!failed) {
      if (++k > furthest) {
        furthest = k;
        furthest_work = work;
      }
      continue;
    }
    if (work > kGoingBackShare * furthest_work + kMinGoingBackWork) return std::nullopt;
    // Another guess of this step's holes, else of the steps where the refused hole's ending items
    // started, the latest first, and where nothing else is to be had there, of the steps where
    // the ending items of the holes that placed them started, and so on; else of the
    // checkpoints before, the latest first.
    std::vector<std::pair<std::size_t, Hole>> suspects = {
        {k, *failed}};  // by step, the latest last
    const auto suspect_starts = [&](const Hole& hole) {
      for (const std::uint32_t i : hole.ending) {
        if (started_at[i] >= 0)
          suspects.emplace_back(static_cast<std::size_t>(started_at[i]), hole);
      }
      std::ranges::sort(suspects, {}, [](const auto& suspect) { return suspect.first; });
    };
    suspect_starts(*failed);
    std::vector<std::size_t> tried;
    while (!resumed && backtracks < kMaxBacktracks) {
      std::size_t j = 0;
      Hole refused;
      if (!suspects.empty()) {
        j = suspects.back().first;
        refused = std::move(suspects.back().second);
        suspects.pop_back();
      } else {
        const auto earlier = std::ranges::find_if(
            checkpoints.rbegin(), checkpoints.rend(), [&](const Checkpoint& at) {
              return at.step < k && std::ranges::find(tried, at.step) == tried.end();
            });
        if (earlier == checkpoints.rend()) break;
        j = earlier->step;
        refused = *failed;
      }
      if (std::ranges::find(tried, j) != tried.end()) continue;
      tried.push_back(j);
      ++backtracks;
      auto at = std::ranges::find(checkpoints, j, &Checkpoint::step);
      std::optional<Checkpoint> made;
      if (at == checkpoints.end()) made.emplace(checkpoint_at(j, guess_key(taken_at(j))));
      Checkpoint& point = made ? *made : *at;
      resumed = next_guess(point, refused);
      if (!resumed) {
        // The holes at j that hold the refused hole's items: where they started is suspect too.
        for (const auto& [ending, starting] : point.current) {
          const auto holds = [&](std::uint32_t i) {
            return std::ranges::binary_search(starting, i);
          };
          if (std::ranges::any_of(refused.ending, holds)) suspect_starts(Hole{ending, starting});
        }
        continue;
      }
      while (!checkpoints.empty() && checkpoints.back().step > j) checkpoints.pop_back();
      if (made) checkpoints.push_back(std::move(*made));
      tree = checkpoints.back().tree.compacted();
      replaced.resize(checkpoints.back().replaced);
      k = j;
    }
    if (!resumed) return std::nullopt;
  }
  return offsets_of(problem, timeline, tree, replaced);
}

}  // namespace

std::optional<std::vector<Bytes>> sweep_holes(const Problem& problem, const Timeline& timeline,
                                              Deadline deadline, SweepPasses passes) {
  if (problem.items.empty()) return std::vector<Bytes>{};
  std::optional<Steps> steps = steps_of(problem);
  if (!steps) return std::nullopt;
  if (passes == SweepPasses::all) {
    if (auto offsets = sweep_guessed_holes(problem, timeline, *steps, deadline)) return offsets;
  }
  return sweep_whole_steps(problem, timeline, *steps, deadline);
}

}  // namespace tidepool::packing
