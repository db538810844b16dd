// The exact search: finds packings at the optimum, proves smaller capacities infeasible, and
// gives up cleanly on its node budget.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/exact_search.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

SearchStatus run_search(const Problem& problem, Bytes capacity, std::int64_t budget, std::vector<Bytes>& offsets) {
  const Timeline timeline(problem);
  ExactSearch search(problem, timeline);
  return search.run("TAW", capacity, budget, Deadline::after_seconds(10), offsets);
}

TEST(PackingExactSearch, TriangleNeedsThreeUnitsNotTwo) {
  // Pairwise overlapping, never all three at once: the bound is 2, the optimum 3.
  const Problem problem{{{"a", 1, 1, {{0, 2}}}, {"b", 1, 1, {{1, 3}}}, {"c", 1, 1, {{0, 1}, {2, 3}}}}};
  std::vector<Bytes> offsets;
  EXPECT_EQ(lower_bound(problem), 2);
  EXPECT_EQ(run_search(problem, 2, 1'000'000, offsets), SearchStatus::infeasible);
  ASSERT_EQ(run_search(problem, 3, 1'000'000, offsets), SearchStatus::found);
  const Verdict verdict = check(problem, {offsets, height_of(problem, offsets)});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_LE(height_of(problem, offsets), 3);
}

// Items as large and as long as validate allows: their areas (size x live length, a preorder's
// key) are beyond 64 bits and saturate instead of overflowing.
TEST(PackingExactSearch, OrdersItemsAtTheLimitsByArea) {
  const Bytes unit = kMaxTotalBytes / 16;
  const Problem problem{{{"early", 3 * unit, unit, {{-kMaxTime, 0}}},
                         {"late", 3 * unit, unit, {{0, kMaxTime}}},
                         {"through", 2 * unit, 1, {{-kMaxTime, kMaxTime}}}}};
  validate(problem);
  std::vector<Bytes> offsets;
  ASSERT_EQ(run_search(problem, 5 * unit, 1'000, offsets), SearchStatus::found);
  EXPECT_TRUE(check(problem, {offsets, height_of(problem, offsets)}).valid);
  EXPECT_EQ(run_search(problem, 5 * unit - 1, 1'000, offsets), SearchStatus::infeasible);
}

TEST(PackingExactSearch, FindsPerfectPackings) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(60, seed, 4096, 4096);
    std::vector<Bytes> offsets;
    ASSERT_EQ(run_search(instance.problem, instance.optimum, 10'000'000, offsets), SearchStatus::found)
        << "seed " << seed;
    const Solution solution{offsets, height_of(instance.problem, offsets)};
    EXPECT_TRUE(check(instance.problem, solution).valid);
    EXPECT_EQ(solution.height, instance.optimum);
  }
}

TEST(PackingExactSearch, RespectsAlignment) {
  const Problem problem{{{"x", 100, 256, {{0, 4}}}, {"y", 100, 256, {{2, 6}}}, {"z", 300, 64, {{4, 8}}}}};
  std::vector<Bytes> offsets;
  EXPECT_EQ(run_search(problem, 427, 1'000'000, offsets), SearchStatus::infeasible);
  ASSERT_EQ(run_search(problem, 428, 1'000'000, offsets), SearchStatus::found);
  EXPECT_TRUE(check(problem, {offsets, height_of(problem, offsets)}).valid);
}

TEST(PackingExactSearch, GivesUpAtItsNodeBudget) {
  const PerfectInstance instance = generate_perfect(60, 1, 4096, 4096);
  std::vector<Bytes> offsets;
  EXPECT_EQ(run_search(instance.problem, instance.optimum, 1, offsets), SearchStatus::gave_up);
}

TEST(PackingExactSearch, RejectsAnUnknownPreorder) {
  const Problem problem{{{"a", 1, 1, {{0, 2}}}}};
  const Timeline timeline(problem);
  ExactSearch search(problem, timeline);
  std::vector<Bytes> offsets;
  EXPECT_THROW(search.run("TXA", 1, 100, Deadline::after_seconds(1), offsets), std::invalid_argument);
  EXPECT_EQ(search.run("WAT", 1, 100, Deadline::after_seconds(1), offsets), SearchStatus::found);
}

}  // namespace
}  // namespace tidepool::packing
