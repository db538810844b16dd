// The report's iteration and plans section (analyzer/report/iteration_plans.h): found on a trace
// that repeats, explained on one that does not, and consistent with its own bounds.
#include <gtest/gtest.h>

#include "analyzer/report/iteration_plans.h"
#include "trace_builder.h"

namespace tidepool::report {
namespace {

using testing::TraceBuilder;

constexpr uint64_t kMiB = uint64_t{1} << 20;

// Weights, then `iterations` identical training steps whose activations live a few launches.
trace::Trace repeating_trace(int iterations) {
  TraceBuilder b;
  const uint64_t weights = b.alloc(trace::AllocKind::device, 64 * kMiB);
  for (int i = 0; i < iterations; ++i) {
    const uint64_t x = b.alloc(trace::AllocKind::device, 16 * kMiB);
    b.launch("forward1", {weights, x});
    const uint64_t y = b.alloc(trace::AllocKind::device, 32 * kMiB);
    b.launch("forward2", {weights, x, y});
    const uint64_t t = b.alloc(trace::AllocKind::device, 8 * kMiB);
    b.launch("loss", {y, t});
    b.free(t);
    const uint64_t g = b.alloc(trace::AllocKind::device, 32 * kMiB);
    b.launch("backward2", {y, g});
    b.free(y);
    b.launch("backward1", {x, g, weights});
    b.free(x);
    b.free(g);
    b.launch("step", {weights});
  }
  b.free(weights);
  return b.trace();
}

TEST(IterationPlans, FoundOnARepeatingTrace) {
  const IterationPlans plans = analyze_plans(repeating_trace(8), {0.2, "pcie5"});
  ASSERT_EQ(plans.no_iteration_reason, "");
  EXPECT_EQ(plans.allocations_per_iteration, 4u);
  EXPECT_EQ(plans.operations_per_iteration, 6u);
  EXPECT_GE(plans.iterations_seen, 7u);
  EXPECT_GT(plans.regularity, 0.8);
  EXPECT_EQ(plans.lower_bound_bytes, 80 * kMiB);  // x + y + g, or x + y + t
  EXPECT_GE(plans.observed_peak_bytes, plans.lower_bound_bytes);
  ASSERT_FALSE(plans.solvers.empty());
  for (const SolverResult& s : plans.solvers) {
    EXPECT_GE(s.arena_bytes, plans.lower_bound_bytes) << s.solver;
    EXPECT_GE(s.seconds, 0) << s.solver;
  }
  EXPECT_EQ(plans.link, "pcie5");
  ASSERT_EQ(plans.swap_error, "");
  ASSERT_EQ(plans.swap.size(), 6u);  // paper and best, at 0, 1 and 5 %
  EXPECT_GT(plans.unoptimized_peak_bytes, 0u);
  for (const SwapResult& r : plans.swap) {
    EXPECT_TRUE(r.planner == "paper" || r.planner == "best");
    EXPECT_LE(r.floor_bytes, r.link_bound_bytes) << r.planner << " " << r.max_slowdown_pct;
    EXPECT_LE(r.link_bound_bytes, r.peak_bytes) << r.planner << " " << r.max_slowdown_pct;
    if (r.planner == "best") {
      EXPECT_LE(r.simulated_slowdown_pct, r.max_slowdown_pct + 1e-9);
    }
  }
}

TEST(IterationPlans, ExplainsATraceWithoutIteration) {
  TraceBuilder b;
  const uint64_t a = b.alloc(trace::AllocKind::device, kMiB);
  b.launch("once", {a});
  b.free(a);
  const IterationPlans plans = analyze_plans(b.trace(), {});
  EXPECT_NE(plans.no_iteration_reason, "");
  EXPECT_EQ(plans.no_iteration_reason.find('\n'), std::string::npos);
  EXPECT_TRUE(plans.solvers.empty());
  EXPECT_TRUE(plans.swap.empty());
}

TEST(IterationPlans, BadLinkIsRejected) {
  EXPECT_THROW(analyze_plans(repeating_trace(3), {0.1, "carrier-pigeon"}), std::invalid_argument);
}

}  // namespace
}  // namespace tidepool::report
