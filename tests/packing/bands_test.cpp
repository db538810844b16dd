// Tiling by bands (bands.h): instances cut by guillotine cuts come apart into single items, on fine
// and on coarse times; whatever it returns is a valid packing at the lower bound.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "analyzer/packing/bands.h"
#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {
namespace {

std::optional<std::vector<Bytes>> tiled_by_bands(const Problem& problem, Deadline deadline) {
  return tile_by_bands(problem, Timeline(problem), deadline);
}

void expect_perfect(const PerfectInstance& instance, const std::optional<std::vector<Bytes>>& offsets) {
  ASSERT_TRUE(offsets.has_value());
  const Verdict verdict = check(instance.problem, {*offsets, height_of(instance.problem, *offsets)});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(height_of(instance.problem, *offsets), instance.optimum);
}

TEST(PackingBands, TilesGuillotineCutsOnFineTimes) {
  for (const std::uint64_t seed : {1, 2}) {
    const PerfectInstance instance = generate_perfect(5000, seed);
    expect_perfect(instance, tiled_by_bands(instance.problem, Deadline::after_seconds(30)));
  }
}

// On 2,000 time steps, items of different parts of the packing share intervals by coincidence, and
// stacking them all folds the instance wrongly (item_merging_test.cpp); bands do not stack.
TEST(PackingBands, TilesGuillotineCutsOnCoarseTimes) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_perfect(2000, seed, Bytes{1} << 32, 2000);
    expect_perfect(instance, tiled_by_bands(instance.problem, Deadline::after_seconds(30)));
  }
}

// A hand-made instance, 10 bytes high over [0, 4): a band of 4 bytes (one item, then cut at time 2
// into 1 + 3) and one of 6 bytes (cut at time 1 into 2 + 4, then each cut at time 3). At time 2 the
// band of 4 is the only hole; at times 1 and 3 the sizes pair 2 with 2 and 4 with 4.
TEST(PackingBands, SplitsIntoBandsAndPiecesInTime) {
  const auto item = [](Bytes size, Time lower, Time upper) { return Item{"x", size, 1, {{lower, upper}}}; };
  PerfectInstance instance;
  instance.problem.items = {item(4, 0, 2), item(1, 2, 4), item(3, 2, 4), item(6, 0, 1),
                            item(2, 1, 3), item(4, 1, 3), item(2, 3, 4), item(4, 3, 4)};
  instance.optimum = 10;
  const std::optional<std::vector<Bytes>> offsets = tiled_by_bands(instance.problem, Deadline::after_seconds(10));
  expect_perfect(instance, offsets);
  // The items cut from the band of 4 lie within it.
  const std::vector<Bytes>& at = *offsets;
  for (const std::size_t k : {1u, 2u}) {
    EXPECT_GE(at[k], at[0]);
    EXPECT_LE(at[k] + instance.problem.items[k].size, at[0] + 4);
  }
}

// Where nothing is live, the instance is cut in time first: both items at offset 0.
TEST(PackingBands, CutsInTimeWhereNothingIsLive) {
  PerfectInstance instance;
  instance.problem.items = {Item{"a", 8, 1, {{0, 5}}}, Item{"b", 8, 1, {{7, 10}}}};
  instance.optimum = 8;
  const std::optional<std::vector<Bytes>> offsets = tiled_by_bands(instance.problem, Deadline::after_seconds(10));
  expect_perfect(instance, offsets);
  EXPECT_EQ(*offsets, (std::vector<Bytes>{0, 0}));
}

// Instances that are not cut by guillotine cuts (refilled and grown: no straight line crosses the
// packing) leave blocks to the tiling search. These small ones come apart into blocks that it
// tiles. Node budgets, not deadlines, end these runs: the outcomes do not depend on the machine.
TEST(PackingBands, TilesSomeInstancesThatAreNotGuillotineCuts) {
  for (const std::uint64_t seed : {1, 2, 3}) {
    const PerfectInstance instance = generate_refill(200, seed);
    expect_perfect(instance, tiled_by_bands(instance.problem, Deadline::never()));
  }
  // (grown:200:1 is tiled too, after 0.8 s of search: left out, for the sanitizer pass.)
  for (const std::uint64_t seed : {2, 3}) {
    const PerfectInstance instance = generate_grown(200, seed);
    expect_perfect(instance, tiled_by_bands(instance.problem, Deadline::never()));
  }
}

// A cut tree as deep as the instance: strip k (1 byte high, over [0, n - k)) is cut off the
// rectangle left, then column k (over [n - k - 1, n - k), as high as what is left above the strip),
// and so on. Each level splits one item off, so the split costs O(items^2): it is tiled when small,
// and when large it stops at the deadline instead of taking minutes.
PerfectInstance peeled(Time n) {
  PerfectInstance instance;
  for (Time k = 0; k < n; ++k) {
    instance.problem.items.push_back(Item{"strip", 1, 1, {{0, n - k}}});
    if (n - k - 1 > 0) instance.problem.items.push_back(Item{"column", n - k - 1, 1, {{n - k - 1, n - k}}});
  }
  instance.optimum = n;
  return instance;
}

TEST(PackingBands, SplitsADeepCutTreeOrStopsAtTheDeadline) {
  const PerfectInstance small = peeled(300);
  expect_perfect(small, tiled_by_bands(small.problem, Deadline::never()));
  const PerfectInstance large = peeled(100'000);
  const auto started = Deadline::Clock::now();
  EXPECT_FALSE(tiled_by_bands(large.problem, Deadline::after_seconds(0.2)).has_value());
  EXPECT_LT(Deadline::seconds_since(started), 5.0);
}

TEST(PackingBands, NothingForNoItems) { EXPECT_FALSE(tiled_by_bands(Problem{}, Deadline::after_seconds(1)).has_value()); }

}  // namespace
}  // namespace tidepool::packing
