// Merging items (item_merging.h): which items merge, that any packing of the merged instance
// expands into a valid packing of the original with the same height, that guillotine cuts fold
// into one item, and that `best` still reaches the optimum when merging made it unreachable.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/item_merging.h"
#include "analyzer/packing/solver.h"
#include "analyzer/packing/tiling_search.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

Item item(Bytes size, Bytes alignment, std::vector<Interval> live) { return {"x", size, alignment, std::move(live)}; }

std::size_t merged_count(std::vector<Item> items) { return MergedProblem(Problem{std::move(items)}).problem().items.size(); }

TEST(PackingItemMerging, MergesInTimeItemsOfOneSizeAndAlignmentThatTouch) {
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(8, 1, {{5, 9}})}), 1u);
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(8, 1, {{5, 9}}), item(8, 1, {{9, 12}})}), 1u);
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(8, 1, {{6, 9}})}), 2u);   // a gap
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(9, 1, {{5, 9}})}), 2u);   // sizes differ
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(8, 4, {{5, 9}})}), 2u);   // alignments differ
}

TEST(PackingItemMerging, KeepsRowsThatEndAtTheLastTime) {
  constexpr Time kLast = std::numeric_limits<Time>::max();
  EXPECT_EQ(merged_count({item(8, 1, {{0, 5}}), item(8, 1, {{5, kLast}})}), 1u);
  EXPECT_EQ(merged_count({item(8, 1, {{0, kLast}}), item(9, 1, {{3, kLast}})}), 2u);  // sizes differ
}

TEST(PackingItemMerging, StacksItemsOfOneIntervalWhoseSizesKeepTheAlignment) {
  EXPECT_EQ(merged_count({item(16, 16, {{0, 5}}), item(32, 16, {{0, 5}}), item(48, 16, {{0, 5}})}), 1u);
  EXPECT_EQ(merged_count({item(10, 16, {{0, 5}}), item(32, 16, {{0, 5}})}), 2u);  // 10 is not a multiple of 16
  EXPECT_EQ(merged_count({item(16, 16, {{0, 5}}), item(32, 16, {{0, 6}})}), 2u);  // intervals differ
  const Problem problem{{item(16, 16, {{0, 5}}), item(32, 16, {{0, 5}})}};
  const MergedProblem merged(problem);
  ASSERT_EQ(merged.problem().items.size(), 1u);
  EXPECT_EQ(merged.problem().items[0].size, 48);
  EXPECT_EQ(merged.problem().items[0].alignment, 16);
  const std::vector<Bytes> offsets = merged.expand(std::vector<Bytes>{64});
  EXPECT_TRUE(check(problem, {offsets, height_of(problem, offsets)}).valid);
  EXPECT_EQ(height_of(problem, offsets), 112);
}

TEST(PackingItemMerging, LeavesItemsWithSeveralIntervalsAsTheyAre) {
  const Problem problem{{item(8, 1, {{0, 2}, {4, 5}}), item(8, 1, {{5, 9}}), item(8, 1, {{0, 2}, {4, 5}})}};
  const MergedProblem merged(problem);
  EXPECT_EQ(merged.problem().items.size(), 3u);
  EXPECT_EQ(merged.expand(std::vector<Bytes>{0, 8, 16}).size(), 3u);
}

TEST(PackingItemMerging, FoldsGuillotineCutsIntoOneItem) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(3000, seed);
    const MergedProblem merged(instance.problem);
    ASSERT_EQ(merged.problem().items.size(), 1u);
    EXPECT_EQ(merged.problem().items[0].size, instance.optimum);
    const std::vector<Bytes> offsets = merged.expand(std::vector<Bytes>{0});
    const Verdict verdict = check(instance.problem, {offsets, height_of(instance.problem, offsets)});
    EXPECT_TRUE(verdict.valid) << verdict.reason;
    EXPECT_EQ(height_of(instance.problem, offsets), instance.optimum);
  }
}

// Rounds of merges stop at the deadline: past it, nothing is merged, and the instance stays as it
// was (the expansion gives its items the offsets given).
TEST(PackingItemMerging, MergesNothingPastItsDeadline) {
  const PerfectInstance instance = generate_perfect(3000, 1);
  const MergedProblem merged(instance.problem, MergedProblem::Stacking::all, Deadline::after_seconds(0));
  ASSERT_EQ(merged.problem().items.size(), instance.problem.items.size());
  EXPECT_EQ(merged.expand(instance.packing.offsets), instance.packing.offsets);
}

// Grown instances fold only in part: any packing of what is left expands into a valid packing of
// the original, as high.
TEST(PackingItemMerging, ExpandsAnyPackingOfTheMergedInstanceIntoAValidOne) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_grown(400, seed);
    const MergedProblem merged(instance.problem);
    EXPECT_LT(merged.problem().items.size(), instance.problem.items.size());
    EXPECT_GT(merged.problem().items.size(), 1u);
    const Solution packing = solve("smartpool", merged.problem(), Deadline::after_seconds(10));
    const std::vector<Bytes> offsets = merged.expand(packing.offsets);
    const Verdict verdict = check(instance.problem, {offsets, packing.height});
    EXPECT_TRUE(verdict.valid) << verdict.reason;
  }
}

// Here merging in time puts two items at one offset that no packing at the bound can have there:
// `best` still finds the optimum, on the items as they are.
TEST(PackingItemMerging, BestReachesTheOptimumWhenMergingRuledItOut) {
  const PerfectInstance instance = generate_grown(40, 10, Bytes{1} << 20, Time{1} << 20);
  const MergedProblem merged(instance.problem);
  const Timeline timeline(merged.problem());
  ASSERT_TRUE(has_no_slack(merged.problem(), timeline));
  EXPECT_FALSE(search_tiling(merged.problem(), timeline, 1'000'000, Deadline::after_seconds(10), Deadline::never()).perfect);
  const Solution solution = solve("best", instance.problem, Deadline::after_seconds(10));
  EXPECT_TRUE(check(instance.problem, solution).valid);
  EXPECT_EQ(solution.height, instance.optimum);
}

// With coarse times (2,000 cuts on 2,000 time steps), items of different parts of the packing
// share intervals by coincidence: stacking them all folds the instance into one with no perfect
// packing (the tiling search proves it, or runs out of nodes), stacking within holes does not.
TEST(PackingItemMerging, StacksWithinHolesWhereCoarseTimesMisleadStackingAll) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(2000, seed, Bytes{1} << 32, 2000);
    for (const auto stacking : {MergedProblem::Stacking::all, MergedProblem::Stacking::within_holes}) {
      const MergedProblem merged(instance.problem, stacking);
      const Problem& folded = merged.problem();
      const Timeline timeline(folded);
      ASSERT_TRUE(has_no_slack(folded, timeline));
      const TilingResult result = search_tiling(folded, timeline, 1000 * static_cast<std::int64_t>(folded.items.size()),
                                                Deadline::after_seconds(10), Deadline::never());
      const std::vector<Bytes> offsets = merged.expand(result.offsets);
      const Verdict verdict = check(instance.problem, {offsets, height_of(instance.problem, offsets)});
      EXPECT_TRUE(verdict.valid) << verdict.reason;
      if (stacking == MergedProblem::Stacking::all) {
        EXPECT_FALSE(result.perfect) << "seed " << seed;
      } else {
        EXPECT_TRUE(result.perfect) << "seed " << seed;
        EXPECT_EQ(height_of(instance.problem, offsets), instance.optimum);
      }
    }
  }
}

// Items live over one interval whose holes are known at neither end (here: they start at time 0
// and end last) are left apart within holes, and stack unless holes differ. Where the holes are
// known, only items of one hole stack: at time 1, 100 is refilled by 37 + 63 and 200 by 91 + 109;
// stacking all puts 37 and 91 next to each other instead, and the items refilling 100 end up
// across the border of 100 and 200.
TEST(PackingItemMerging, StacksWithRegardToHolesOnlyItemsOfOneHole) {
  using Stacking = MergedProblem::Stacking;
  const Problem unknown{{item(8, 1, {{0, 5}}), item(8, 1, {{0, 5}})}};
  EXPECT_EQ(MergedProblem(unknown, Stacking::within_holes).problem().items.size(), 2u);
  EXPECT_EQ(MergedProblem(unknown, Stacking::unless_holes_differ).problem().items.size(), 1u);
  const Problem problem{{item(100, 1, {{0, 1}}), item(200, 1, {{0, 1}}), item(37, 1, {{1, 2}}), item(91, 1, {{1, 2}}),
                         item(63, 1, {{1, 2}}), item(109, 1, {{1, 2}}), item(300, 1, {{2, 3}})}};
  for (const auto stacking : {Stacking::all, Stacking::within_holes, Stacking::unless_holes_differ}) {
    const MergedProblem merged(problem, stacking);
    ASSERT_EQ(merged.problem().items.size(), 1u);
    const std::vector<Bytes> offsets = merged.expand(std::vector<Bytes>{0});
    EXPECT_TRUE(check(problem, {offsets, height_of(problem, offsets)}).valid);
    const auto spans = [&](std::size_t a, std::size_t b, std::size_t whole) {
      return std::min(offsets[a], offsets[b]) == offsets[whole] &&
             std::max(offsets[a] + problem.items[a].size, offsets[b] + problem.items[b].size) ==
                 offsets[whole] + problem.items[whole].size;
    };
    EXPECT_EQ(spans(2, 4, 0) && spans(3, 5, 1), stacking != Stacking::all);
  }
}

}  // namespace
}  // namespace tidepool::packing
