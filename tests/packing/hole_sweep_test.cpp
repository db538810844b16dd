// The hole sweep (hole_sweep.h): refilled instances, whose holes sizes tell, packed at the
// optimum; where holes are guessed wrong, no packing rather than a wrong one.
#include "analyzer/packing/hole_sweep.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/tiling_search.h"

namespace tidepool::packing {
namespace {

// The deadline is far: what the sweep finds does not depend on the machine's speed (under the
// sanitizers a 10,000-item instance takes several seconds).
std::optional<std::vector<Bytes>> swept(const Problem& problem, double seconds = 600) {
  const Timeline timeline(problem);
  EXPECT_TRUE(has_no_slack(problem, timeline));
  return sweep_holes(problem, timeline, Deadline::after_seconds(seconds));
}

void expect_optimal(const PerfectInstance& instance,
                    const std::optional<std::vector<Bytes>>& offsets) {
  ASSERT_TRUE(offsets.has_value());
  const Verdict verdict = check(instance.problem, {*offsets, instance.optimum});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(height_of(instance.problem, *offsets), instance.optimum);
}

void expect_refill_swept_optimally(std::size_t items, std::uint64_t seed) {
  const PerfectInstance instance = generate_refill(items, seed);
  expect_optimal(instance, swept(instance.problem));
}

TEST(PackingHoleSweep, PacksRefilledInstancesAtTheOptimum) {
  // Sizes of 32 random bits: the holes at every time are the groups whose sums match. The order
  // of the items within a hole is left open until a later hole fixes it.
  for (const std::uint64_t seed : {1, 2, 3, 6}) expect_refill_swept_optimally(2000, seed);
  // Seed 3 has a hole of one 11,084,219-byte item among times of 15-16 items with small sizes,
  // whose subset sums holes.h stops matching before they reach it: small groups come first. Seed
  // 7 has a time where 20 and 17 items are left once groups of up to three are matched: groups of
  // four split them.
  for (const std::uint64_t seed : {1, 3, 7}) expect_refill_swept_optimally(10000, seed);
}

TEST(PackingHoleSweep, GuessesAgainWhereTheTreeCannotTakeAHole) {
  // Four items of 2,489 bytes at one time, two ending and two starting in two holes: the first
  // guess pairs them wrongly, and 20 steps later the tree cannot take a hole of a 2,489-byte item
  // that replaced one of them; the sweep goes back through the steps where the refused hole's
  // items started (and those of the holes that placed them there) to that time, and pairs them the
  // other way round.
  expect_refill_swept_optimally(10000, 4);
}

TEST(PackingHoleSweep, SearchesTheHolesOfAStepWithTheTree) {
  // Seed 5: one item and three add up alike by chance at a time whose true holes are of two and
  // three items; the tree refuses what is left, and the search over the time's groups finds the
  // holes it takes. Seed 6: an item of 225 bytes and three of 20, 120 and 85 alike, and two
  // 4-byte items paired the wrong way round; the search's first cover is refused 5 steps later,
  // and its next, with the refused hole's items chosen first, is right. Seed 11: one 3,925-byte
  // item for another at a time nothing contested, refused 18 steps later: the sweep makes a
  // checkpoint where the refused hole's items started and searches there.
  for (const std::uint64_t seed : {5, 6, 11}) expect_refill_swept_optimally(10000, seed);
}

TEST(PackingHoleSweep, PacksGuillotineCutsOnFineTimes) {
  const PerfectInstance instance = generate_perfect(2000, 1);
  expect_optimal(instance, swept(instance.problem));
}

TEST(PackingHoleSweep, GivesNoPackingRatherThanAWrongOne) {
  // Coarse times make holes ambiguous (several at a time, sizes that add up by chance): a wrong
  // guess that no other guess mends ends the sweep, whatever it had placed.
  const std::vector<PerfectInstance> instances = {generate_perfect(2000, 3, Bytes{1} << 32, 500),
                                                  generate_perfect(2000, 5, Bytes{1} << 32, 500)};
  int none = 0;
  for (const PerfectInstance& instance : instances) {
    const std::optional<std::vector<Bytes>> offsets = swept(instance.problem);
    if (!offsets) {
      ++none;
      continue;
    }
    expect_optimal(instance, offsets);
  }
  EXPECT_GT(none, 0);
}

TEST(PackingHoleSweep, StopsAtTheDeadline) {
  const PerfectInstance instance = generate_refill(2000, 1);
  EXPECT_FALSE(swept(instance.problem, 0).has_value());
}

TEST(PackingHoleSweep, PacksOneItemAndTwoStacked) {
  Problem problem;
  problem.items = {Item{"a", 8, 1, {{0, 4}}}};
  std::optional<std::vector<Bytes>> offsets = swept(problem);
  ASSERT_TRUE(offsets.has_value());
  EXPECT_EQ(*offsets, (std::vector<Bytes>{0}));
  // b and c end where d and e start: one hole of 12 bytes (or two), either way 12 high.
  problem.items = {Item{"b", 8, 1, {{0, 4}}}, Item{"c", 4, 1, {{0, 4}}}, Item{"d", 8, 1, {{4, 9}}},
                   Item{"e", 4, 1, {{4, 9}}}};
  offsets = swept(problem);
  ASSERT_TRUE(offsets.has_value());
  EXPECT_TRUE(check(problem, {*offsets, 12}).valid);
  EXPECT_EQ(height_of(problem, *offsets), 12);
}

}  // namespace
}  // namespace tidepool::packing
