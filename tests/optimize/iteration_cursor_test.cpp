// The iteration cursor against hand-made plan descriptions: boundaries of each kind, ordinals,
// the anchor, the fingerprint check at the first matched iteration's end, and the event-by-event
// comparison of the iterations after it.
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

// A known start moved one event later (a plan armed while a refused allocation, no event of the
// trace, was counted): the iteration starts one event later; once it has started, nothing moves.
TEST(IterationCursor, KnownStartDelayedWhileWaiting) {
  IterationCursor c(described(plan::BoundaryKind::period, ""), fingerprint(), 0);
  c.start_after(1);
  c.delay_start(1);
  EXPECT_FALSE(c.on_transfer().started);
  EXPECT_FALSE(c.on_free().started);
  const auto steps = iteration(c);
  EXPECT_TRUE(steps[0].started);
  EXPECT_TRUE(steps[0].trusted);
  c.delay_start(1);
  const auto next = iteration(c);
  EXPECT_TRUE(*steps[5].finished);
  EXPECT_TRUE(next[0].started);
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

// After one iteration matched by its fingerprint, the next are compared with it event by event: a
// different size or kernel is seen where it happens (the rest of that iteration is not trusted),
// and an iteration like the first matches again.
TEST(IterationCursor, LaterIterationsAreComparedEventByEvent) {
  IterationCursor c(described(plan::BoundaryKind::nvtx_range, "step"), fingerprint(), 0);
  c.on_range_push("step");
  iteration(c);
  ASSERT_TRUE(*c.on_range_push("step").finished);  // fingerprinted

  const auto other_size = iteration(c, 48);
  EXPECT_TRUE(other_size[1].trusted);
  EXPECT_FALSE(other_size[2].trusted);  // 48 where the matched iteration had 32
  EXPECT_FALSE(other_size[4].trusted);
  EXPECT_FALSE(*c.on_range_push("step").finished);

  const std::vector<IterationCursor::Step> other_kernel = {c.on_alloc(64), c.on_launch("k2"), c.on_alloc(32)};
  EXPECT_TRUE(other_kernel[0].trusted);
  EXPECT_FALSE(other_kernel[1].trusted);
  EXPECT_FALSE(other_kernel[2].trusted);
  c.on_free();
  c.on_transfer();
  c.on_free();
  EXPECT_FALSE(*c.on_range_push("step").finished);

  const auto same = iteration(c);
  for (const auto& step : same) EXPECT_TRUE(step.trusted);
  EXPECT_TRUE(*c.on_range_push("step").finished);
}

// A period boundary whose anchor is shorter than the iteration: a compared iteration that differs
// after the anchor is left at its next event (a fingerprint would see it only at the end) and
// found again by its anchor.
TEST(IterationCursor, ComparedPeriodIterationThatDiffersIsLeftAtOnce) {
  plan::IterationDescription d = described(plan::BoundaryKind::period, "");
  d.anchor.pop_back();  // alloc 64, launch k
  IterationCursor c(d, fingerprint(), 0);
  c.start_after(0);
  EXPECT_TRUE(*iteration(c)[5].finished);  // fingerprinted
  const std::vector<IterationCursor::Step> differing = {c.on_alloc(64), c.on_launch("k"), c.on_alloc(48),
                                                        c.on_free()};
  EXPECT_TRUE(differing[1].trusted);
  EXPECT_FALSE(differing[2].trusted);
  ASSERT_TRUE(differing[3].finished.has_value());
  EXPECT_FALSE(*differing[3].finished);
  c.on_transfer();
  c.on_free();
  const auto again = iteration(c);
  EXPECT_TRUE(again[0].started);
  EXPECT_TRUE(again[1].trusted);  // the anchor matched whole
  EXPECT_TRUE(*again[5].finished);
}

}  // namespace
}  // namespace tidepool::runtime::optimize
