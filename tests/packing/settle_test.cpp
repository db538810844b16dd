// Settling a packing (settle.h): items fall into gaps below them and rise into gaps above, the
// packing is never higher than it was, always valid, and lower than one fall alone gets it where a
// rise opens room below.
#include "analyzer/packing/settle.h"

#include <gtest/gtest.h>

#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/placement.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

Item item(Bytes size, Time lower, Time upper, Bytes alignment = 1) {
  return Item{"x", size, alignment, {{lower, upper}}};
}

// b is above a gap that a leaves when it ends: it falls into it.
TEST(PackingSettle, AnItemFallsIntoTheGapBelowIt) {
  Problem problem;
  problem.items = {item(2, 0, 2), item(3, 0, 1), item(1, 1, 3)};
  const Settled settled =
      settle(problem, Timeline(problem), {0, 2, 6}, Deadline::after_seconds(10));
  EXPECT_EQ(settled.offsets, (std::vector<Bytes>{0, 2, 2}));
  EXPECT_GT(settled.fall_seconds, 0);
}

// Items stacked one on another in a random order, settled: valid, never higher than the stack or
// than one fall, and on these lower than one fall.
TEST(PackingSettle, RisesOpenRoomThatAFallAloneDoesNotFind) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(300, seed, Bytes{1} << 16, 60);
    const Problem& problem = instance.problem;
    const Timeline timeline(problem);
    std::vector<Bytes> stacked;
    Bytes top = 0;
    for (const Item& each : problem.items) {
      stacked.push_back(top);
      top += each.size;
    }
    const std::vector<Bytes> one_fall = place(problem, timeline, order_by_offset(stacked),
                                              Placer::gaps_first, Deadline::after_seconds(10));
    const Settled settled = settle(problem, timeline, stacked, Deadline::after_seconds(10));
    const Bytes height = height_of(problem, settled.offsets);
    const Verdict verdict = check(problem, {settled.offsets, height});
    EXPECT_TRUE(verdict.valid) << verdict.reason;
    EXPECT_LT(height, height_of(problem, one_fall)) << "seed " << seed;
    EXPECT_GE(height, instance.optimum);
  }
}

// b (2 bytes, aligned to 2) under a (3 bytes): 5 high. Upside down, b starts at 3 and is aligned
// up to 4, and turned back it would start below 0; the next fall places it afresh, so the packing
// stays valid (and here as it was).
TEST(PackingSettle, StaysAlignedWhereTurningMisalignsAnItem) {
  Problem problem;
  problem.items = {item(2, 0, 2, 2), item(3, 0, 2)};
  const Settled settled = settle(problem, Timeline(problem), {0, 2}, Deadline::after_seconds(10));
  EXPECT_EQ(settled.offsets, (std::vector<Bytes>{0, 2}));
  const Verdict verdict = check(problem, {settled.offsets, height_of(problem, settled.offsets)});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
}

}  // namespace
}  // namespace tidepool::packing
