// The iteration cursor against hand-made plan descriptions: boundaries of each kind, ordinals,
// the anchor, and the fingerprint check at each iteration's end.
#include "runtime/optimize/iteration_cursor.h"

#include <gtest/gtest.h>

namespace tidepool::runtime::optimize {
namespace {

using A = plan::AnchorEvent;

// An iteration of: alloc 64, launch "k", alloc 32, free, copy, free (6 events).
plan::IterationDescription described(plan::BoundaryKind boundary, std::string name) {
  return {boundary, std::move(name),
          6,        2,
          2,        {{A::Kind::alloc, 64, ""}, {A::Kind::kernel, 0, "k"}, {A::Kind::alloc, 32, ""}},
          3,        1.0};
}

uint64_t fingerprint() {
  plan::Fingerprinter f;
  f.add_alloc(64);
  f.add_kernel("k");
  f.add_alloc(32);
  return f.value();
}

// Feeds one iteration; returns the steps.
std::vector<IterationCursor::Step> iteration(IterationCursor& c, uint64_t second_alloc = 32) {
  return {c.on_alloc(64), c.on_launch("k"), c.on_alloc(second_alloc),
          c.on_free(),    c.on_transfer(),  c.on_free()};
}

TEST(IterationCursor, KnownStartIsTrustedAndNumbered) {
  IterationCursor c(described(plan::BoundaryKind::period, ""), fingerprint(), 0);
  c.start_after(2);
  EXPECT_FALSE(c.on_transfer().trusted);
  EXPECT_FALSE(c.on_free().trusted);
  const auto steps = iteration(c);
  EXPECT_TRUE(steps[0].started);
  EXPECT_TRUE(steps[0].trusted);
  EXPECT_EQ(steps[0].ordinal, 0u);
  EXPECT_EQ(steps[1].ordinal, 0u);  // the first operation
  EXPECT_EQ(steps[2].ordinal, 1u);  // the second allocation
  EXPECT_EQ(steps[4].ordinal, 1u);  // the second operation
  ASSERT_TRUE(steps[5].finished.has_value());
  EXPECT_TRUE(*steps[5].finished);
  const auto next = iteration(c);
  EXPECT_TRUE(next[0].started);
  EXPECT_TRUE(next[0].trusted);
  EXPECT_TRUE(*next[5].finished);
}

TEST(IterationCursor, AnchorIsTrustedOnceWhollyMatched) {
  IterationCursor c(described(plan::BoundaryKind::period, ""), fingerprint(), 0);
  EXPECT_FALSE(c.on_alloc(8).started);  // not the anchor's start
  const auto steps = iteration(c);
  EXPECT_TRUE(steps[0].started);
  EXPECT_FALSE(steps[0].trusted);
  EXPECT_FALSE(steps[1].trusted);
  EXPECT_TRUE(steps[2].trusted);  // the last anchor entry
  EXPECT_EQ(steps[2].ordinal, 1u);
  EXPECT_TRUE(*steps[5].finished);
}

TEST(IterationCursor, DifferentIterationIsNotAMatch) {
  IterationCursor c(described(plan::BoundaryKind::period, ""), fingerprint(), 0);
  c.start_after(0);
  const auto steps = iteration(c, 48);  // another size where the anchor says 32
  EXPECT_FALSE(steps[2].trusted);
  ASSERT_TRUE(steps[2].finished.has_value());
  EXPECT_FALSE(*steps[2].finished);
  // Lost, it finds the iteration again by its anchor.
  const auto again = iteration(c);
  EXPECT_TRUE(again[0].started);
  EXPECT_TRUE(again[2].trusted);
}

TEST(IterationCursor, KernelBoundary) {
  plan::IterationDescription d = described(plan::BoundaryKind::kernel, "k");
  d.anchor = {{A::Kind::kernel, 0, "k"}, {A::Kind::alloc, 32, ""}};
  d.events = 4;
  d.allocations = 1;
  plan::Fingerprinter f;
  f.add_kernel("k");
  f.add_alloc(32);
  IterationCursor c(d, f.value(), 0);
  EXPECT_FALSE(c.on_alloc(64).trusted);  // before the first boundary
  for (int i = 0; i < 3; ++i) {
    const auto launch = c.on_launch("k");
    EXPECT_TRUE(launch.started);
    EXPECT_TRUE(launch.trusted);
    EXPECT_EQ(launch.ordinal, 0u);
    if (i > 0) {
      ASSERT_TRUE(launch.finished.has_value());
      EXPECT_TRUE(*launch.finished);
    }
    EXPECT_EQ(c.on_alloc(32).ordinal, 0u);
    c.on_transfer();
    c.on_free();
  }
}

TEST(IterationCursor, NvtxBoundaryAndFingerprint) {
  IterationCursor c(described(plan::BoundaryKind::nvtx_range, "step"), fingerprint() + 1, 0);
  EXPECT_FALSE(c.on_range_push("other").finished.has_value());
  c.on_range_push("step");
  const auto steps = iteration(c);
  EXPECT_TRUE(steps[0].started);
  EXPECT_TRUE(steps[0].trusted);
  const auto end = c.on_range_push("step");
  ASSERT_TRUE(end.finished.has_value());
  EXPECT_FALSE(*end.finished);  // the fingerprint differs
}

}  // namespace
}  // namespace tidepool::runtime::optimize
