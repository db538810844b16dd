// Each solver on small hand-made instances with known optima, items with several intervals and
// alignment; the placement rules on an instance where best and first fit differ.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/gap_fit.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/solver.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

// Fillers live all the time; the two gaps left for `t` (live over [5, 10)) are [1, 5) and [6, 8).
const Problem kTwoGaps{{
    {"f1", 1, 1, {{0, 10}}},
    {"g1", 4, 1, {{0, 5}}},
    {"f2", 1, 1, {{0, 10}}},
    {"g2", 2, 1, {{0, 5}}},
    {"f3", 2, 1, {{0, 10}}},
    {"t", 2, 1, {{5, 10}}},
}};

TEST(PackingGapFit, BestFitTakesTheSmallestGapAndFirstFitTheLowest) {
  const Timeline timeline(kTwoGaps);
  const std::vector<std::size_t> order = {0, 1, 2, 3, 4, 5};
  EXPECT_EQ(place_in_gaps(kTwoGaps, timeline, order, Fit::best, Deadline::never()), (std::vector<Bytes>{0, 1, 5, 6, 8, 6}));
  EXPECT_EQ(place_in_gaps(kTwoGaps, timeline, order, Fit::first, Deadline::never()), (std::vector<Bytes>{0, 1, 5, 6, 8, 1}));
}

TEST(PackingSmartPool, PlacesBySizeThenStartIntoTheBestGap) {
  // Order: g1, then the size-2 items by start (g2, f3, t), then f1, f2.
  const Solution solution = solve_smartpool(kTwoGaps, Fit::best, Deadline::never());
  EXPECT_EQ(solution.offsets, (std::vector<Bytes>{8, 0, 9, 4, 6, 0}));
  EXPECT_EQ(solution.height, 10);
}

TEST(PackingOnlineBestFit, ReusesFreedBlocksByBestFit) {
  const Problem problem{{{"a", 4, 1, {{0, 2}}}, {"b", 2, 1, {{0, 4}}}, {"c", 4, 1, {{2, 6}}}}};
  const Solution solution = solve_online_bestfit(problem);
  EXPECT_EQ(solution.offsets, (std::vector<Bytes>{0, 4, 0}));
  EXPECT_EQ(solution.height, 6);
}

TEST(PackingOnlineBestFit, CoalescesNeighbouringFreeBlocks) {
  const Problem problem{{{"a", 2, 1, {{0, 2}}}, {"b", 2, 1, {{0, 2}}}, {"c", 4, 1, {{2, 4}}}}};
  const Solution solution = solve_online_bestfit(problem);
  EXPECT_EQ(solution.offsets[2], 0);
  EXPECT_EQ(solution.height, 4);
}

TEST(PackingOnlineBestFit, HoldsAnItemWithGapsThroughItsGaps) {
  const Problem problem{{{"gappy", 4, 1, {{0, 2}, {6, 8}}}, {"inside", 4, 1, {{2, 6}}}}};
  EXPECT_EQ(solve_online_bestfit(problem).height, 8);
}

// Two blocks are freed at 5, [0, 5) and [6, 9) (y and z live on); three items start then, sizes
// 2, 3, 3. In that order the 2 takes the best fit, [6, 9), and the last 3 fits nowhere; largest
// first, the blocks are filled exactly, at the lower bound.
const Problem kRefilledAtOnce{{
    {"f2", 5, 1, {{0, 5}}},
    {"y", 1, 1, {{1, 10}}},
    {"f1", 3, 1, {{2, 5}}},
    {"z", 1, 1, {{3, 10}}},
    {"two", 2, 1, {{5, 10}}},
    {"three", 3, 1, {{5, 10}}},
    {"another-three", 3, 1, {{5, 10}}},
}};

TEST(PackingFreeBlocks, ServesTheItemsThatStartTogetherInTheOrder) {
  EXPECT_EQ(solve_online_bestfit(kRefilledAtOnce).height, 13);  // input order
  const std::vector<Bytes> offsets = place_in_free_blocks(kRefilledAtOnce, order_by(kRefilledAtOnce, OrderKey::size), Deadline::never());
  EXPECT_EQ(offsets, (std::vector<Bytes>{0, 5, 6, 9, 3, 6, 0}));
  EXPECT_EQ(height_of(kRefilledAtOnce, offsets), lower_bound(kRefilledAtOnce));
}

// A time limit holds for the baselines too: a pass the deadline cuts leaves the rest to the
// completion above it, so the packing is complete and valid, and higher than the uncut one.
TEST(PackingBaselines, StopAtTheDeadlineWithACompletePacking) {
  const Problem problem = generate_perfect(2000, 5).problem;
  for (const std::string_view name : {"smartpool", "smartpool-firstfit", "tflite-greedy-size", "xla-heap"}) {
    const Solution cut = solve(name, problem, Deadline::after_seconds(0));
    const Verdict verdict = check(problem, cut);
    EXPECT_TRUE(verdict.valid) << name << ": " << verdict.reason;
    EXPECT_GT(cut.height, solve(name, problem, Deadline::never()).height) << name;
  }
}

// Every solver: valid on each instance, never below the lower bound; `best` at the optimum.
struct Known {
  const char* name;
  Problem problem;
  Bytes optimum;
};

constexpr Bytes kLimitUnit = kMaxTotalBytes / 16;

std::vector<Known> known_instances() {
  return {
      {"two gaps", kTwoGaps, 10},
      {"minimalloc's example",
       Problem{{{"b1", 4, 1, {{0, 3}}}, {"b2", 4, 1, {{3, 9}}}, {"b3", 4, 1, {{0, 9}}},
                {"b4", 4, 1, {{9, 21}}}, {"b5", 4, 1, {{0, 21}}}}},
       12},
      // Two periods, both full at the optimum: the long items must sit at the same offsets in both.
      {"two full periods",
       Problem{{{"long1", 3, 1, {{0, 10}}}, {"long2", 3, 1, {{0, 10}}}, {"big", 5, 1, {{0, 4}}},
                {"late1", 4, 1, {{4, 10}}}, {"late2", 1, 1, {{4, 10}}}}},
       11},
      // The reuse of a gap: an item with two intervals shares its offset with one in its gap.
      {"gap reuse", Problem{{{"gappy", 4, 1, {{0, 2}, {6, 8}}}, {"inside", 4, 1, {{2, 6}}}}}, 4},
      // Three items that pairwise overlap, never all at once: the optimum is above the bound.
      {"triangle",
       Problem{{{"a", 1, 1, {{0, 2}}}, {"b", 1, 1, {{1, 3}}}, {"c", 1, 1, {{0, 1}, {2, 3}}}}}, 3},
      {"aligned",
       Problem{{{"x", 100, 256, {{0, 4}}}, {"y", 100, 256, {{2, 6}}}, {"z", 300, 256, {{4, 8}}}}}, 556},
      // At validate's limits: sizes and alignments adding up to 5/8 of kMaxTotalBytes, times at
      // +-kMaxTime (a live length of 2^62: areas overflow 64 bits).
      {"at the limits",
       Problem{{{"early", 3 * kLimitUnit, kLimitUnit, {{-kMaxTime, 0}}},
                {"late", 3 * kLimitUnit, kLimitUnit, {{0, kMaxTime}}},
                {"through", 2 * kLimitUnit, 1, {{-kMaxTime, kMaxTime}}}}},
       5 * kLimitUnit},
      {"perfect packing", generate_perfect(40, 7, 1000, 1000).problem, 1000},
  };
}

TEST(PackingSolvers, EverySolverIsValidOnKnownInstances) {
  for (const Known& known : known_instances()) {
    for (const SolverInfo& solver : solvers()) {
      const Solution solution = solve(solver.name, known.problem, Deadline::after_seconds(2));
      const Verdict verdict = check(known.problem, solution);
      EXPECT_TRUE(verdict.valid) << solver.name << " on " << known.name << ": " << verdict.reason;
      EXPECT_GE(solution.height, known.optimum) << solver.name << " on " << known.name;
      EXPECT_GE(solution.height, lower_bound(known.problem));
    }
  }
}

TEST(PackingSolvers, BestReachesTheOptimum) {
  for (const Known& known : known_instances()) {
    const Solution solution = solve("best", known.problem, Deadline::after_seconds(5));
    EXPECT_EQ(solution.height, known.optimum) << known.name;
  }
}

TEST(PackingSolvers, SmartPoolMissesAPerfectPackingThatBestFinds) {
  const Known perfect = known_instances().back();
  EXPECT_GT(solve("smartpool", perfect.problem, Deadline::after_seconds(1)).height, perfect.optimum);
}

TEST(PackingSolvers, LookupByName) {
  EXPECT_EQ(find_solver("xla-heap").name, "xla-heap");
  EXPECT_THROW(find_solver("nope"), std::invalid_argument);
  EXPECT_THROW(solve("best", Problem{{{"bad", 0, 1, {{0, 1}}}}}, Deadline::after_seconds(1)),
               std::invalid_argument);
  EXPECT_EQ(solve("best", Problem{}, Deadline::after_seconds(1)).height, 0);
}

}  // namespace
}  // namespace tidepool::packing
