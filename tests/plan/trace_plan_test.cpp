// Pool plans and solver comparisons made from a trace.
#include "analyzer/plan/trace_plan.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/plan/plan_io.h"
#include "analyzer/plan/pool_comparison.h"
#include "analyzer/plan/swap_plan.h"
#include "analyzer/trace/reader.h"
#include "tests/support/files.h"
#include "training_trace.h"

namespace tidepool::plan {
namespace {

constexpr int kLayers = 4;

TEST(TracePlan, PoolPlanOfADetectedIteration) {
  const testing::TrainingTrace t(6, kLayers);
  PlanRequest request;
  request.pool = PoolRequest{};
  const Plan plan = plan_from_trace(t.trace(), "t.tpt", request);
  EXPECT_EQ(plan.source.trace, "t.tpt");
  EXPECT_EQ(plan.source.program, "train_test");
  EXPECT_EQ(plan.iteration.boundary, BoundaryKind::period);
  EXPECT_EQ(plan.iteration.allocations, 3u * kLayers);
  EXPECT_EQ(plan.iteration.operations, 2u * kLayers + 1);
  EXPECT_EQ(plan.iteration.events, 3u * kLayers * 2 + 2u * kLayers + 1);
  EXPECT_EQ(plan.iteration.iterations_seen, 6u);
  EXPECT_DOUBLE_EQ(plan.iteration.regularity, 1.0);
  ASSERT_TRUE(plan.pool);
  EXPECT_EQ(plan.pool->solver, "best");
  EXPECT_EQ(plan.pool->slots.size(), 3u * kLayers);  // everything but the weights is per-iteration
  EXPECT_EQ(plan.pool->persistent_bytes, 1000u * (1 + 2 + 3 + 4));
  EXPECT_GE(plan.pool->arena_bytes, plan.pool->lower_bound_bytes);
  // The activations of all layers are live at once at the end of forward, plus the last grad.
  std::uint64_t activations = 0;
  for (int l = 0; l < kLayers; ++l) activations += (5000 + 100 * l + 255) / 256 * 256;
  EXPECT_GE(plan.pool->lower_bound_bytes, activations - 256 * kLayers);
  EXPECT_EQ(parse_plan(to_json_text(plan)), plan);  // consistent, and round trips
}

TEST(TracePlan, ExplicitBoundaryAndSolver) {
  const testing::TrainingTrace t(3, kLayers);
  PlanRequest request;
  request.iteration = {BoundaryKind::nvtx_range, "step"};
  request.pool = PoolRequest{"smartpool", 1};
  const Plan plan = plan_from_trace(t.trace(), "t.tpt", request);
  EXPECT_EQ(plan.iteration.boundary, BoundaryKind::nvtx_range);
  EXPECT_EQ(plan.iteration.name, "step");
  EXPECT_EQ(plan.pool->solver, "smartpool");
  request.iteration = {BoundaryKind::kernel, "adam"};
  const Plan by_kernel = plan_from_trace(t.trace(), "t.tpt", request);
  EXPECT_EQ(by_kernel.iteration.events, plan.iteration.events);
}

TEST(TracePlan, ClearErrors) {
  const testing::TrainingTrace t(1, kLayers);
  PlanRequest request;
  request.pool = PoolRequest{};
  try {
    plan_from_trace(t.trace(), "t.tpt", request);
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "no repeating iteration found in the trace; name its boundary with --iteration-marker or "
                 "--iteration-kernel");
  }
  request.pool->solver = "nope";
  EXPECT_THROW(plan_from_trace(testing::TrainingTrace(4, 2).trace(), "t.tpt", request), std::invalid_argument);
}

TEST(TracePlan, SwapsAndPoolTogether) {
  // Large activations and slow kernels: swapping them out between forward and backward pays.
  const testing::TrainingTrace t(4, kLayers, 64u << 20, 20'000'000);
  PlanRequest request;
  request.pool = PoolRequest{"best", 1};
  request.swap = SwapRequest{"best", "pcie5", std::nullopt, 5};
  const Plan plan = plan_from_trace(t.trace(), "t.tpt", request);
  ASSERT_TRUE(plan.swap);
  ASSERT_TRUE(plan.pool);
  EXPECT_EQ(plan.swap->planner, "best");
  EXPECT_EQ(plan.swap->link, "pcie5");
  EXPECT_LE(plan.swap->simulated_slowdown_pct, 5.0 + 1e-9);
  ASSERT_FALSE(plan.swap->operations.empty());
  for (const SwapOperation& op : plan.swap->operations) {
    if (op.buffer.scope != BufferRef::Scope::iteration) continue;
    for (const Slot& s : plan.pool->slots) EXPECT_NE(s.ordinal, op.buffer.ordinal) << "a swapped buffer is also a slot";
  }
  EXPECT_EQ(parse_plan(to_json_text(plan)), plan);

  request.pool.reset();
  request.swap->link = "warp-drive";
  EXPECT_THROW(plan_from_trace(t.trace(), "t.tpt", request), std::invalid_argument);
}

// From a file: a pool alone from the event stream read in order, swaps from the trace read whole;
// the same plans as from the trace in memory either way.
TEST(TracePlan, FromAFileAsFromTheTraceInMemory) {
  test_support::TempDir dir("tidepool-plan-from-file");
  const std::filesystem::path path = dir.path() / "t.tpt";
  PlanRequest request;
  request.pool = PoolRequest{"smartpool", 1};
  const testing::TrainingTrace t(6, kLayers);
  t.write(path);
  FilePlan from_file = plan_from_file(path, request);
  EXPECT_FALSE(from_file.truncated);
  EXPECT_EQ(from_file.plan, plan_from_trace(t.trace(), path.string(), request));

  const testing::TrainingTrace slow(4, kLayers, 64u << 20, 20'000'000);
  slow.write(path);
  request.swap = SwapRequest{"best", "pcie5", std::nullopt, 5};
  from_file = plan_from_file(path, request);
  ASSERT_TRUE(from_file.plan.swap);
  EXPECT_EQ(from_file.plan, plan_from_trace(slow.trace(), path.string(), request));

  EXPECT_THROW(plan_from_file(dir.path() / "missing.tpt", request), trace::TraceError);
}

// The allocations a swap plan may name: the iteration's own, and those made before it and still
// live at its start, each with its ordinal among all the program's allocations (freed ones count).
TEST(BufferRefs, TheIterationsAllocationsAndThoseLiveAtItsStart) {
  using iteration::EventKind;
  iteration::EventStream stream;
  auto alloc = [&](std::uint64_t id, std::uint64_t bytes) {
    stream.events.push_back({.kind = EventKind::alloc, .allocation = id, .bytes = bytes});
  };
  auto free = [&](std::uint64_t id) {
    stream.events.push_back({.kind = EventKind::free, .allocation = id});
  };
  alloc(10, 100);  // program ordinal 0, freed before the iteration
  alloc(11, 200);  // program ordinal 1, live through it
  free(10);
  alloc(12, 300);  // the iteration [3, 6)
  stream.events.push_back({.kind = EventKind::launch});
  free(12);
  alloc(13, 400);  // after it

  const BufferRefs refs = buffer_refs(stream, {3, 6});
  EXPECT_EQ(refs.size(), 2u);
  EXPECT_FALSE(refs.contains(10));
  EXPECT_FALSE(refs.contains(13));
  EXPECT_EQ(refs.at(11), (BufferRef{BufferRef::Scope::program, 1, 200}));
  EXPECT_EQ(refs.at(12), (BufferRef{BufferRef::Scope::iteration, 0, 300}));
}

TEST(PoolComparison, EverySolverAgainstTheLowerBound) {
  const testing::TrainingTrace t(5, kLayers);
  const iteration::EventStream stream = iteration::event_stream(t.trace());
  const PoolComparison c = compare_pool_solvers(stream, find_iterations(stream, {}), 0.5);
  EXPECT_EQ(c.live_at_start_bytes, 10000u);
  EXPECT_EQ(c.escaping_bytes, 0u);
  EXPECT_GT(c.observed_peak_bytes, c.live_at_start_bytes + c.lower_bound_bytes - 1);
  ASSERT_FALSE(c.solvers.empty());
  for (const SolverArena& s : c.solvers) EXPECT_GE(s.arena_bytes, c.lower_bound_bytes) << s.solver;
}

}  // namespace
}  // namespace tidepool::plan
