// The skyline placement: fills the lowest floor from its left end, raises what cannot be filled,
// and is valid on random instances with several intervals per item and alignment.
#include <gtest/gtest.h>

#include <random>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/skyline_fit.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

Solution skyline(const Problem& problem) {
  const Timeline timeline(problem);
  Solution solution;
  solution.offsets = place_skyline(problem, timeline, ranks_of(order_by(problem, OrderKey::size)), Deadline::never());
  solution.height = height_of(problem, solution.offsets);
  return solution;
}

TEST(PackingSkyline, FillsTheLowestFloorFromItsLeftEnd) {
  // Two short items tile [0, 10) at the bottom, under a long one; then one after a gap in time.
  const Problem problem{{{"long", 5, 1, {{0, 10}}},
                         {"left", 3, 1, {{0, 4}}},
                         {"right", 3, 1, {{4, 10}}},
                         {"late", 8, 1, {{10, 12}}}}};
  const Solution solution = skyline(problem);
  // At section 0 the longest item that fits goes first (long), then left and right above it.
  EXPECT_EQ(solution.offsets, (std::vector<Bytes>{0, 5, 5, 0}));
  EXPECT_EQ(solution.height, 8);
}

TEST(PackingSkyline, RaisesACornerNothingFits) {
  // Sections: {a, c}, {c, b}, {b, d}. c goes first at the bottom, then d beside it; the corner
  // above d has no item that starts there (b began a section earlier), so it rises to c's top,
  // where a and then b go.
  const Problem problem{{{"a", 1, 1, {{0, 2}}}, {"c", 2, 1, {{0, 4}}}, {"b", 3, 1, {{3, 8}}}, {"d", 1, 1, {{5, 6}}}}};
  const Solution solution = skyline(problem);
  EXPECT_EQ(solution.offsets, (std::vector<Bytes>{2, 0, 2, 0}));
  EXPECT_EQ(solution.height, 5);
  EXPECT_TRUE(check(problem, solution).valid);
}

TEST(PackingSkyline, ValidOnRandomInstancesWithGapsAndAlignment) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 30; ++round) {
    Problem problem;
    for (int i = 0; i < 60; ++i) {
      const Time start = static_cast<Time>(random() % 100);
      Item item{std::to_string(i), 1 + static_cast<Bytes>(random() % 500), Bytes{1} << (random() % 9), {}};
      item.live.push_back({start, start + 1 + static_cast<Time>(random() % 30)});
      if (random() % 3 == 0) {
        const Time again = item.live[0].upper + 1 + static_cast<Time>(random() % 20);
        item.live.push_back({again, again + 1 + static_cast<Time>(random() % 20)});
      }
      problem.items.push_back(item);
    }
    const Solution solution = skyline(problem);
    const Verdict verdict = check(problem, solution);
    ASSERT_TRUE(verdict.valid) << "round " << round << ": " << verdict.reason;
    EXPECT_GE(solution.height, lower_bound(problem));
  }
}

TEST(PackingSkyline, ValidOnPerfectPackings) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(3000, seed);
    const Solution solution = skyline(instance.problem);
    EXPECT_TRUE(check(instance.problem, solution).valid);
    EXPECT_GE(solution.height, instance.optimum);
  }
}

}  // namespace
}  // namespace tidepool::packing
