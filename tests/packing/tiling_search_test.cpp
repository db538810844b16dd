// The tiling search: it packs instances with no slack at the lower bound, both those cut from a
// rectangle and those grown on a skyline with sizes that all differ (generator.h; both are
// guillotine cuts: the search does not solve grown instances with sizes on 8 steps, see
// docs/packing.md), `best` uses it, and it always returns a complete valid packing.
#include <gtest/gtest.h>

#include <string>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/solver.h"
#include "analyzer/packing/tiling_search.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// The packing a search returned, which the independent checker must accept.
Solution checked_packing(const Problem& problem, const TilingResult& result) {
  const Solution solution{result.offsets, height_of(problem, result.offsets)};
  const Verdict verdict = check(problem, solution);
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  return solution;
}

void expect_perfect(const Problem& problem, Bytes optimum) {
  const Timeline timeline(problem);
  ASSERT_TRUE(has_no_slack(problem, timeline));
  const TilingResult result = search_tiling(problem, timeline, 1'000'000, Deadline::after_seconds(60), Deadline::never());
  EXPECT_TRUE(result.perfect);
  EXPECT_EQ(checked_packing(problem, result).height, optimum);
}

TEST(PackingTilingSearch, PacksRectangleCutsAtTheOptimum) {
  for (const std::uint64_t seed : {3, 4, 5, 6}) {
    const PerfectInstance instance = generate_perfect(1000, seed);
    expect_perfect(instance.problem, instance.optimum);
  }
}

TEST(PackingTilingSearch, PacksSkylineGrownTilingsAtTheOptimum) {
  for (const std::uint64_t seed : {1, 2, 3, 4}) {
    const Problem problem = generate_grown(300, seed, Bytes{1} << 20, 400, 0).problem;
    ASSERT_GT(problem.items.size(), 300u);
    expect_perfect(problem, Bytes{1} << 20);
  }
}

TEST(PackingTilingSearch, MakesBestReachTheOptimumOfPerfectInstances) {
  const PerfectInstance instance = generate_perfect(2000, 11);
  const Solution solution = solve("best", instance.problem, Deadline::after_seconds(60));
  EXPECT_TRUE(check(instance.problem, solution).valid);
  EXPECT_EQ(solution.height, instance.optimum);
}

TEST(PackingTilingSearch, CompletesAValidPackingWhenTheBudgetRunsOut) {
  const PerfectInstance instance = generate_perfect(500, 9);
  const Timeline timeline(instance.problem);
  const TilingResult result = search_tiling(instance.problem, timeline, 1, Deadline::after_seconds(60), Deadline::never());
  EXPECT_FALSE(result.perfect);
  EXPECT_GE(checked_packing(instance.problem, result).height, instance.optimum);
}

// Large instances (from kTilingLocalRestartsFrom items on) restart locally, from checkpoints behind
// the deepest point reached, instead of from scratch: these tests ask for local restarts on a tenth
// of that, so that they stay fast.
constexpr std::size_t kLocalRestartsInTests = kTilingLocalRestartsFrom / 10;

TEST(PackingTilingSearch, PacksLargeInstancesWithLocalRestartsAtTheOptimum) {
  for (const std::uint64_t seed : {2, 3}) {
    const PerfectInstance instance = generate_perfect(6000, seed);
    const Timeline timeline(instance.problem);
    const TilingResult result = search_tiling(instance.problem, timeline, 1'000'000, Deadline::after_seconds(60),
                                              Deadline::never(), kLocalRestartsInTests);
    EXPECT_TRUE(result.perfect);
    EXPECT_EQ(checked_packing(instance.problem, result).height, instance.optimum);
  }
}

TEST(PackingTilingSearch, CompletesALargeSearchCutByItsBudget) {
  const PerfectInstance instance = generate_perfect(6000, 4);
  const Timeline timeline(instance.problem);
  const TilingResult result = search_tiling(instance.problem, timeline, 500, Deadline::after_seconds(60),
                                            Deadline::never(), kLocalRestartsInTests);
  EXPECT_FALSE(result.perfect);
  EXPECT_LE(result.nodes, 500);
  checked_packing(instance.problem, result);
}

// 1,250 columns of four 128-byte items with 256-byte alignment: each column fills its section to
// the bound (512), but no column can be packed below 896. With local restarts the search must
// still prove that (it exhausts the candidates, about one node per item) rather than run out of
// its budget.
TEST(PackingTilingSearch, ProvesLargeInstancesInfeasibleWithLocalRestarts) {
  Problem problem;
  for (int column = 0; column < 1250; ++column) {
    for (int k = 0; k < 4; ++k) {
      problem.items.push_back({std::to_string(column) + "." + std::to_string(k), 128, 256, {{4 * column, 4 * column + 4}}});
    }
  }
  const Timeline timeline(problem);
  ASSERT_TRUE(has_no_slack(problem, timeline));
  const TilingResult result = search_tiling(problem, timeline, 100'000'000, Deadline::after_seconds(60),
                                            Deadline::never(), kLocalRestartsInTests);
  EXPECT_FALSE(result.perfect);
  EXPECT_LT(result.nodes, 100'000);
  EXPECT_EQ(checked_packing(problem, result).height, 896);
}

// Ten items of one interval (sizes 1..8 and two of size 1 that need offset 0: alignment 64, and
// the column is 38 bytes high) fill their section exactly, but only one item can lie at 0. Stacks
// of one interval are tried in one order only, so the search proves it in about as many nodes as
// there are subsets of the stack, not permutations (10! orders; the budget is far below that).
TEST(PackingTilingSearch, TriesEachStackOfOneIntervalInOneOrderOnly) {
  Problem problem;
  for (int size = 1; size <= 8; ++size) problem.items.push_back({"s" + std::to_string(size), size, 1, {{0, 2}}});
  problem.items.push_back({"x", 1, 64, {{0, 2}}});
  problem.items.push_back({"z", 1, 64, {{0, 2}}});
  const Timeline timeline(problem);
  ASSERT_TRUE(has_no_slack(problem, timeline));
  const TilingResult result = search_tiling(problem, timeline, 1'000'000, Deadline::after_seconds(60), Deadline::never());
  EXPECT_FALSE(result.perfect);
  EXPECT_LT(result.nodes, 10'000);
  checked_packing(problem, result);
}

// Items that keep their alignment only at some places in a stack are not reordered: the 64-aligned
// item must lie at 0, under all the others of its interval (which come before it in the search's
// order: larger, or of smaller alignment).
TEST(PackingTilingSearch, StacksItemsOfOtherAlignmentsInAnyOrder) {
  Problem problem;
  for (int size = 1; size <= 8; ++size) problem.items.push_back({"s" + std::to_string(size), size, 1, {{0, 2}}});
  problem.items.push_back({"x", 1, 64, {{0, 2}}});
  expect_perfect(problem, 37);
}

TEST(PackingTilingSearch, AppliesOnlyWithoutSlack) {
  // Sections {a, b} (4 bytes) and {b, c} (3 bytes): slack in the second.
  const Problem slack{{{"a", 2, 1, {{0, 2}}}, {"b", 2, 1, {{0, 4}}}, {"c", 1, 1, {{3, 4}}}}};
  EXPECT_FALSE(has_no_slack(slack, Timeline(slack)));
  // An item with two intervals.
  const Problem gaps{{{"a", 1, 1, {{0, 2}, {3, 4}}}, {"b", 1, 1, {{2, 3}}}}};
  EXPECT_FALSE(has_no_slack(gaps, Timeline(gaps)));
  const Problem full{{{"a", 1, 1, {{0, 2}}}, {"b", 1, 1, {{2, 4}}}}};
  EXPECT_TRUE(has_no_slack(full, Timeline(full)));
}

TEST(PackingTilingSearch, RespectsAlignment) {
  // A 256-byte column cut in two at 128 in address: with 256-byte alignment the upper half cannot
  // lie at 128, so no packing at the bound exists; the completion still returns a valid one.
  const Problem problem{{{"low", 128, 256, {{0, 4}}}, {"high", 128, 256, {{0, 4}}}}};
  const Timeline timeline(problem);
  const TilingResult result = search_tiling(problem, timeline, 1000, Deadline::after_seconds(60), Deadline::never());
  EXPECT_FALSE(result.perfect);
  EXPECT_EQ(checked_packing(problem, result).height, 384);
}

}  // namespace
}  // namespace tidepool::packing
