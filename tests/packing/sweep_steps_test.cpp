// The steps of an instance with no slack (sweep_steps.h): the times where items start, each with
// the items that end there, every list in the order of the items; none where an item ends before
// the next start.
#include "analyzer/packing/sweep_steps.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace tidepool::packing {
namespace {

Problem from_intervals(const std::vector<Interval>& intervals) {
  Problem problem;
  for (std::size_t i = 0; i < intervals.size(); ++i)
    problem.items.push_back(Item{std::to_string(i), 1, 1, {intervals[i]}});
  return problem;
}

TEST(PackingSweepSteps, TimesWhereItemsStartWithTheItemsEndingThere) {
  // Items 0 and 2 live over [0, 4); item 1 over [0, 2); 3 and 4 start at 2, 5 at 4.
  const Problem problem = from_intervals({{0, 4}, {0, 2}, {0, 4}, {2, 6}, {2, 4}, {4, 6}});
  const std::optional<Steps> steps = steps_of(problem);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->live_first, (Items{0, 1, 2}));
  ASSERT_EQ(steps->steps.size(), 2U);
  EXPECT_EQ(steps->steps[0].time, 2);
  EXPECT_EQ(steps->steps[0].ending, (Items{1}));
  EXPECT_EQ(steps->steps[0].starting, (Items{3, 4}));
  EXPECT_EQ(steps->steps[1].time, 4);
  EXPECT_EQ(steps->steps[1].ending, (Items{0, 2, 4}));
  EXPECT_EQ(steps->steps[1].starting, (Items{5}));
}

TEST(PackingSweepSteps, NoneWhereAnItemEndsBeforeTheNextStart) {
  EXPECT_FALSE(steps_of(from_intervals({{0, 2}, {0, 3}, {3, 5}})).has_value());
}

// Times spread over most of the 64-bit range, negative ones included (several radix passes), in
// a random order of items: the steps are those that grouping the items by time gives.
TEST(PackingSweepSteps, TimesFarApartAndNegative) {
  std::mt19937_64 random(7);
  const std::vector<Time> times = {-(Time{1} << 62), -5, 0, 3, Time{1} << 40, (Time{1} << 62) + 11};
  // Chains of items from the first time to the last, each cut at random times in between.
  std::vector<Interval> intervals;
  for (int chain = 0; chain < 40; ++chain) {
    std::size_t at = 0;
    while (at + 1 < times.size()) {
      const std::size_t next = at + 1 + random() % (times.size() - 1 - at);
      intervals.push_back({times[at], times[next]});
      at = next;
    }
  }
  std::ranges::shuffle(intervals, random);
  const Problem problem = from_intervals(intervals);
  std::map<Time, Items> starting;
  std::map<Time, Items> ending;
  for (std::uint32_t i = 0; i < intervals.size(); ++i) {
    starting[intervals[i].lower].push_back(i);
    ending[intervals[i].upper].push_back(i);
  }
  const std::optional<Steps> steps = steps_of(problem);
  ASSERT_TRUE(steps.has_value());
  EXPECT_EQ(steps->live_first, starting[times.front()]);
  ASSERT_EQ(steps->steps.size(), times.size() - 2);
  for (std::size_t k = 0; k < steps->steps.size(); ++k) {
    const Step& step = steps->steps[k];
    EXPECT_EQ(step.time, times[k + 1]);
    EXPECT_EQ(step.ending, ending[step.time]);
    EXPECT_EQ(step.starting, starting[step.time]);
  }
}

}  // namespace
}  // namespace tidepool::packing
