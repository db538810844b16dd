// The hole sweep's first pass, every time one hole (whole_step_sweep.h), through sweep_holes with
// SweepPasses::whole_steps: grown instances at the optimum, and a time where two holes meet.
#include <gtest/gtest.h>

#include <iterator>
#include <optional>
#include <set>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/hole_sweep.h"
#include "analyzer/packing/tiling_search.h"

namespace tidepool::packing {
namespace {

std::optional<std::vector<Bytes>> swept_whole(const Problem& problem) {
  const Timeline timeline(problem);
  EXPECT_TRUE(has_no_slack(problem, timeline));
  return sweep_holes(problem, timeline, Deadline::after_seconds(600), SweepPasses::whole_steps);
}

void expect_at(const Problem& problem, Bytes optimum,
               const std::optional<std::vector<Bytes>>& offsets) {
  ASSERT_TRUE(offsets.has_value());
  const Verdict verdict = check(problem, {*offsets, optimum});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(height_of(problem, *offsets), optimum);
}

// Two instances side by side in address, the second's times moved (keeping their order, 0 and
// the end) so that its `second_time`th end meets the first's `first_time`th: at that time two
// holes, one in each, apart unless they touch.
Problem side_by_side(const PerfectInstance& first, const PerfectInstance& second,
                     std::size_t first_time, std::size_t second_time) {
  const auto ends = [](const Problem& problem) {
    std::set<Time> times;
    for (const Item& item : problem.items) times.insert(item.live.front().upper);
    times.erase(std::prev(times.end()));  // the end of all
    return times;
  };
  const Time horizon = Time{1} << 32;
  const Time to = *std::next(ends(first.problem).begin(), static_cast<std::ptrdiff_t>(first_time));
  const Time from =
      *std::next(ends(second.problem).begin(), static_cast<std::ptrdiff_t>(second_time));
  const auto moved = [&](Time t) {
    if (t <= from) return static_cast<Time>(static_cast<__int128>(t) * to / from);
    return to +
           static_cast<Time>(static_cast<__int128>(t - from) * (horizon - to) / (horizon - from));
  };
  Problem both = first.problem;
  for (Item item : second.problem.items) {
    item.id = "second " + item.id;
    for (Interval& live : item.live) live = {moved(live.lower), moved(live.upper)};
    both.items.push_back(std::move(item));
  }
  validate(both);
  return both;
}

TEST(PackingWholeStepSweep, PacksGrownInstancesAtTheOptimum) {
  // Sizes on 8 values: at every time several ways to pair the items that end with those that
  // start add up, but there is one hole, and the tree alone orders its items.
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_grown(2000, seed);
    expect_at(instance.problem, instance.optimum, swept_whole(instance.problem));
  }
  const PerfectInstance large = generate_grown(10000, 1);
  expect_at(large.problem, large.optimum, swept_whole(large.problem));
}

TEST(PackingWholeStepSweep, PacksGuillotineCutsOnFineTimes) {
  const PerfectInstance instance = generate_perfect(10000, 1);
  expect_at(instance.problem, instance.optimum, swept_whole(instance.problem));
}

TEST(PackingWholeStepSweep, MendsATimeWhereTwoHolesMeet) {
  // Grown sizes add up by chance, so the meeting time is taken whole at first; the tree refuses a
  // later time, and the sweep splits the meeting time (where the refused items started) in two.
  const PerfectInstance first = generate_grown(300, 1);
  const PerfectInstance second = generate_grown(300, 2);
  for (const auto& [first_time, second_time] :
       std::vector<std::pair<std::size_t, std::size_t>>{{10, 10}, {50, 10}, {100, 10}}) {
    const Problem both = side_by_side(first, second, first_time, second_time);
    expect_at(both, first.optimum + second.optimum, swept_whole(both));
  }
}

TEST(PackingWholeStepSweep, SplitsALargeMeetingTimeWithTheTree) {
  // 15 items end and 11 start where the two instances meet: too many to split in every way; one
  // hole's ending items are gathered with the tree, the starting items matched by sums.
  const PerfectInstance first = generate_grown(2000, 1);
  const PerfectInstance second = generate_grown(2000, 2);
  const Problem both = side_by_side(first, second, 100, 7);
  expect_at(both, first.optimum + second.optimum, swept_whole(both));
}

TEST(PackingWholeStepSweep, SplitsFirstWhereSizesSeldomAddUp) {
  // Sizes of 32 random bits: a time whose items split into two holes that add up is such a time.
  const PerfectInstance first = generate_perfect(300, 1);
  const PerfectInstance second = generate_perfect(300, 2);
  for (const std::size_t first_time : {10, 50, 100}) {
    const Problem both = side_by_side(first, second, first_time, 20);
    expect_at(both, first.optimum + second.optimum, swept_whole(both));
  }
}

TEST(PackingWholeStepSweep, GivesUpWhereTimesHaveManyHoles) {
  // A refilled instance has many holes at most times: the first pass gives up, the guesses by
  // sizes pack it.
  const PerfectInstance instance = generate_refill(2000, 1);
  EXPECT_FALSE(swept_whole(instance.problem).has_value());
  const Timeline timeline(instance.problem);
  expect_at(instance.problem, instance.optimum,
            sweep_holes(instance.problem, timeline, Deadline::after_seconds(600)));
}

}  // namespace
}  // namespace tidepool::packing
