// The generators of perfect packings (cut, grown and refilled): the pieces fill the rectangle, so the packing
// each returns is valid with height == optimum == lower bound; they are deterministic for a seed.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"

namespace tidepool::packing {
namespace {

void expect_fills_the_rectangle(const PerfectInstance& instance) {
  EXPECT_NO_THROW(validate(instance.problem));
  const Verdict verdict = check(instance.problem, instance.packing);
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(instance.packing.height, instance.optimum);
  EXPECT_EQ(lower_bound(instance.problem), instance.optimum);
}

TEST(PackingGenerator, PiecesFillTheRectangle) {
  for (const std::size_t items : {1, 2, 50, 2000}) {
    const PerfectInstance instance = generate_perfect(items, 42);
    EXPECT_EQ(instance.problem.items.size(), items);
    expect_fills_the_rectangle(instance);
  }
}

TEST(PackingGenerator, IsDeterministicPerSeed) {
  EXPECT_EQ(generate_perfect(100, 5).problem.items, generate_perfect(100, 5).problem.items);
  EXPECT_NE(generate_perfect(100, 5).problem.items, generate_perfect(100, 6).problem.items);
}

TEST(PackingGenerator, SmallRectanglesStopCuttingWhenTooThin) {
  const PerfectInstance instance = generate_perfect(1000, 3, 8, 8);
  EXPECT_LT(instance.problem.items.size(), 1000u);
  EXPECT_TRUE(check(instance.problem, instance.packing).valid);
}

TEST(PackingGenerator, GrownPiecesFillTheRectangle) {
  for (const std::size_t items : {1, 50, 2000, 20000}) {
    const PerfectInstance instance = generate_grown(items, 42);
    expect_fills_the_rectangle(instance);
    if (items >= 2000) {  // about as many as asked for
      EXPECT_GT(instance.problem.items.size(), items * 7 / 10);
      EXPECT_LT(instance.problem.items.size(), items * 13 / 10);
    }
  }
  expect_fills_the_rectangle(generate_grown(300, 5, 1000, 50));
}

TEST(PackingGenerator, GrownIsDeterministicPerSeed) {
  EXPECT_EQ(generate_grown(500, 5).problem.items, generate_grown(500, 5).problem.items);
  EXPECT_NE(generate_grown(500, 5).problem.items, generate_grown(500, 6).problem.items);
}

TEST(PackingGenerator, RefilledPiecesFillTheRectangle) {
  for (const std::size_t items : {1, 50, 2000, 20000}) {
    const PerfectInstance instance = generate_refill(items, 42);
    expect_fills_the_rectangle(instance);
    EXPECT_GE(instance.problem.items.size(), items);  // the last step may cut a few more
    EXPECT_LT(instance.problem.items.size(), items + items / 10 + 20);
  }
  expect_fills_the_rectangle(generate_refill(300, 5, 40));  // holes too small for the cuts asked for
}

TEST(PackingGenerator, RefillIsDeterministicPerSeed) {
  EXPECT_EQ(generate_refill(500, 5).problem.items, generate_refill(500, 5).problem.items);
  EXPECT_NE(generate_refill(500, 5).problem.items, generate_refill(500, 6).problem.items);
}

TEST(PackingGenerator, ParsesSpecs) {
  EXPECT_EQ(generate_from_spec("refill:30:9").problem.items, generate_refill(30, 9).problem.items);
  EXPECT_THROW(generate_from_spec("refill:30:"), std::invalid_argument);
  EXPECT_EQ(generate_from_spec("grown:30:9").problem.items, generate_grown(30, 9).problem.items);
  EXPECT_THROW(generate_from_spec("grown:30"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("grown::1"), std::invalid_argument);
  EXPECT_EQ(generate_from_spec("perfect:30:9").problem.items, generate_perfect(30, 9).problem.items);
  EXPECT_THROW(generate_from_spec("perfect:30"), std::invalid_argument);
  EXPECT_EQ(generate_from_spec("perfect:30:9:500").problem.items, generate_perfect(30, 9, Bytes{1} << 32, 500).problem.items);
  EXPECT_THROW(generate_from_spec("perfect:30:9:"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("perfect:30:9:0"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("perfect:30:9:5:1"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("grown:30:9:500"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("perfect:x:1"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("perfect:0:1"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("square:3:1"), std::invalid_argument);
  EXPECT_THROW(generate_from_spec("refill:20000001:1"), std::invalid_argument);  // kMaxGeneratedItems
}

}  // namespace
}  // namespace tidepool::packing
