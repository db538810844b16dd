// The timeline simulator on hand-made timelines whose answers are known: overlap of copies with
// compute, a stall, engine contention, clean swap-outs and a swap that wraps the iteration.
#include <gtest/gtest.h>

#include <limits>

#include "analyzer/swap/simulator.h"

namespace tidepool::swap {
namespace {

constexpr Bytes kMiB = Bytes{1} << 20;
constexpr double kMs = 1e-3;

// A link that copies 2 MiB in exactly 1 ms, with no latency and free mapping.
Link millisecond_link() { return Link{"test", 2.0 * kMiB / kMs, 0, 0, 0}; }

Model chain(std::size_t ops, double seconds = kMs) {
  Model m;
  for (std::size_t i = 0; i < ops; ++i) m.ops.push_back({OpKind::kernel, 0, seconds, {}, "k"});
  return m;
}

Buffer buffer(Bytes size, std::uint32_t begin, std::uint32_t end, std::vector<std::uint32_t> access_ops) {
  Buffer b{size, begin, end, false, false, {}, 0};
  for (std::uint32_t op : access_ops) b.accesses.push_back({op, true, true});
  return b;
}

// A (2 MiB) is used by op 0 and op 3; B (4 MiB) lives during op 2 only. Swapping A out after op
// 0 (done at 2 ms) and back from op 3's issue... is too late; from op 2's issue it is in time.
Model overlap_model() {
  Model m = chain(4);
  m.buffers.push_back(buffer(2 * kMiB, 0, 4, {0, 3}));
  m.buffers.push_back(buffer(4 * kMiB, 2, 3, {2}));
  return m;
}

TEST(Simulator, WithoutSwapsTheIterationIsTheSumOfDurationsAndThePeakIsLiveBytes) {
  const Model m = overlap_model();
  const Simulation s = simulate(m, {}, millisecond_link());
  EXPECT_NEAR(s.iteration_seconds, 4 * kMs, 1e-12);
  EXPECT_EQ(s.peak_bytes, 6 * kMiB);
  EXPECT_EQ(s.stall_seconds, 0);
  EXPECT_EQ(s.bytes_out + s.bytes_in, 0u);
}

TEST(Simulator, CopiesOverlapComputeWithoutStalling) {
  Model m = chain(5);
  m.buffers.push_back(buffer(2 * kMiB, 0, 5, {0, 4}));
  m.buffers.push_back(buffer(4 * kMiB, 2, 3, {2}));
  // Out after op 0: copy [1, 2) ms, released at 2; back issued at op 3 (3 ms): [3, 4), needed at 4.
  const SwapOp op{0, 0, 3, 4, true, std::nullopt};
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_NEAR(s.iteration_seconds, 5 * kMs, 1e-12);
  EXPECT_EQ(s.stall_seconds, 0);
  EXPECT_EQ(s.peak_bytes, 4 * kMiB);  // A is away while B lives
  EXPECT_NEAR(s.swaps[0].out_start, 1 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[0].release, 2 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[0].in_end, 4 * kMs, 1e-12);
  EXPECT_EQ(s.bytes_out, 2 * kMiB);
  EXPECT_EQ(s.bytes_in, 2 * kMiB);
  EXPECT_EQ(s.pinned_peak_bytes, 2 * kMiB);
}

TEST(Simulator, ASwapInIssuedAtItsAccessStallsForTheWholeCopy) {
  const Model m = overlap_model();
  const SwapOp op{0, 0, 3, 3, true, std::nullopt};  // back only when op 3 is issued
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_NEAR(s.stall_seconds, 1 * kMs, 1e-12);
  EXPECT_NEAR(s.iteration_seconds, 5 * kMs, 1e-12);
  EXPECT_NEAR(s.op_start[3], 4 * kMs, 1e-12);
  EXPECT_EQ(s.peak_bytes, 4 * kMiB);
}

TEST(Simulator, OneEnginePerDirectionRunsCopiesOneAfterAnother) {
  Model m = chain(6);
  m.buffers.push_back(buffer(2 * kMiB, 0, 6, {0, 5}));
  m.buffers.push_back(buffer(2 * kMiB, 0, 6, {0, 5}));
  const std::vector<SwapOp> ops = {{0, 0, 2, 5, true, std::nullopt}, {1, 0, 2, 5, true, std::nullopt}};
  const Simulation s = simulate(m, ops, millisecond_link());
  EXPECT_NEAR(s.swaps[0].out_end, 2 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[1].out_start, 2 * kMs, 1e-12);  // waits for the first copy
  EXPECT_NEAR(s.swaps[1].out_end, 3 * kMs, 1e-12);
  // Both issued back at op 2 (2 ms): the first waits for nothing... the second's copy out is
  // still running, so its copy back starts after that and after the first copy back.
  EXPECT_NEAR(s.swaps[0].in_start, 2 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[1].in_start, 3 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[1].in_end, 4 * kMs, 1e-12);
  EXPECT_EQ(s.stall_seconds, 0);
}

TEST(Simulator, AReleasePointWaitsForTheSwapOut) {
  const Model m = overlap_model();
  const SwapOp op{0, 0, 2, 3, true, 1u};  // op 1 waits until A's copy out (1..2 ms) is done
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_NEAR(s.op_start[1], 2 * kMs, 1e-12);
  EXPECT_NEAR(s.stall_seconds, 1 * kMs, 1e-12);
}

// A plan slower than the given limit is not simulated to the end; one within it is simulated
// exactly as without a limit.
TEST(Simulator, GivesUpOnPlansSlowerThanTheLimit) {
  const Model m = overlap_model();
  const std::vector<SwapOp> plan{{0, 0, 2, 3, true, 1u}};  // 5 ms instead of 4
  const Simulation full = simulate(m, plan, millisecond_link());
  EXPECT_NEAR(full.iteration_seconds, 5 * kMs, 1e-12);
  const Simulation within =
      simulate(m, plan, millisecond_link(), Placement::own_allocations, full.iteration_seconds);
  EXPECT_EQ(within.iteration_seconds, full.iteration_seconds);
  EXPECT_EQ(within.peak_bytes, full.peak_bytes);
  EXPECT_EQ(within.op_start, full.op_start);
  const Simulation beyond = simulate(m, plan, millisecond_link(), Placement::own_allocations, 4.5 * kMs);
  EXPECT_EQ(beyond.iteration_seconds, std::numeric_limits<double>::infinity());
}

TEST(Simulator, ACleanSwapOutMovesNoBytesOut) {
  Model m = overlap_model();
  m.buffers[0].accesses = {{0, false, false}, {3, true, true}};  // op 0 only reads it by a copy
  m.buffers[0].persistent = false;
  const SwapOp op{0, 0, 2, 3, false, std::nullopt};
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_EQ(s.bytes_out, 0u);
  EXPECT_EQ(s.bytes_in, 2 * kMiB);
  EXPECT_NEAR(s.swaps[0].release, 1 * kMs, 1e-12);  // right after the access
}

TEST(Simulator, SwapsOfPersistentBuffersWrapAroundTheIteration) {
  Model m = chain(4);
  Buffer weights = buffer(2 * kMiB, 0, 4, {0});
  weights.persistent = true;
  m.buffers.push_back(weights);
  m.buffers.push_back(buffer(4 * kMiB, 2, 3, {2}));
  // Out after op 0, back from op 3's issue, needed by op 0 of the next iteration.
  const SwapOp op{0, 0, 3, 0, true, std::nullopt};
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_EQ(s.peak_bytes, 4 * kMiB);
  EXPECT_EQ(s.stall_seconds, 0);
  EXPECT_NEAR(s.iteration_seconds, 4 * kMs, 1e-12);
}

// Beside a pool, the iteration's unswapped buffers sit in one static arena as high as their
// largest total live size, held over the whole iteration; persistent and swapped buffers live
// outside it, a swapped one only while it is resident.
TEST(Simulator, AStaticArenaIsHeldAllIterationAndSwappedBuffersLiveOutsideIt) {
  Model m = chain(5);
  m.buffers.push_back(buffer(2 * kMiB, 0, 5, {0, 4}));  // A
  m.buffers.push_back(buffer(4 * kMiB, 2, 3, {2}));     // B
  Buffer persistent = buffer(1 * kMiB, 0, 5, {1});
  persistent.persistent = true;
  m.buffers.push_back(persistent);
  const Simulation unswapped = simulate(m, {}, millisecond_link(), Placement::static_arena);
  EXPECT_EQ(unswapped.arena_bytes, 6 * kMiB);  // A and B at op 2
  EXPECT_EQ(unswapped.arena_peak_op, 2u);
  EXPECT_EQ(unswapped.peak_bytes, 7 * kMiB);
  // A away over [2, 3) ms: alone, the peak is B and the persistent buffer; beside the arena (now B
  // only), A counts whenever it is resident.
  const std::vector<SwapOp> plan{{0, 0, 3, 4, true, std::nullopt}};
  EXPECT_EQ(simulate(m, plan, millisecond_link()).peak_bytes, 5 * kMiB);
  const Simulation pooled = simulate(m, plan, millisecond_link(), Placement::static_arena);
  EXPECT_EQ(pooled.arena_bytes, 4 * kMiB);
  EXPECT_EQ(pooled.peak_bytes, 7 * kMiB);
  EXPECT_NEAR(pooled.iteration_seconds, 5 * kMs, 1e-12);
}

TEST(Simulator, SwappedBuffersAreChargedAtTheMappingGranularity) {
  Model m = chain(5);
  m.buffers.push_back(buffer(3 * kMiB, 0, 5, {0, 4}));   // 4 MiB once swapped
  m.buffers.push_back(buffer(1 * kMiB, 1, 2, {1}));
  EXPECT_EQ(simulate(m, {}, millisecond_link()).peak_bytes, 4 * kMiB);
  const SwapOp op{0, 0, 3, 4, true, std::nullopt};
  EXPECT_EQ(simulate(m, std::vector<SwapOp>{op}, millisecond_link()).peak_bytes, 5 * kMiB);
}

TEST(Simulator, CrossStreamDependenciesDelayTheWaitingOp) {
  Model m;
  m.ops = {{OpKind::kernel, 0, 2 * kMs, {}, "a"}, {OpKind::copy, 1, kMs, {}, "upload", Engine::host_to_device},
           {OpKind::kernel, 1, kMs, {0}, "c"}};
  m.buffers.push_back(buffer(kMiB, 0, 3, {0, 1, 2}));
  const Simulation s = simulate(m, {}, millisecond_link());
  EXPECT_NEAR(s.op_start[1], 0, 1e-12);       // another stream and engine: runs beside op 0
  EXPECT_NEAR(s.op_start[2], 2 * kMs, 1e-12);  // waits for op 0
  EXPECT_NEAR(s.iteration_seconds, 3 * kMs, 1e-12);
}

TEST(Simulator, KernelsOfAllStreamsShareOneComputeEngine) {
  Model m;
  m.ops = {{OpKind::kernel, 0, 2 * kMs, {}, "a"}, {OpKind::kernel, 1, kMs, {}, "b"}};
  m.buffers.push_back(buffer(kMiB, 0, 2, {0, 1}));
  const Simulation s = simulate(m, {}, millisecond_link());
  EXPECT_NEAR(s.op_start[1], 2 * kMs, 1e-12);
  EXPECT_NEAR(s.iteration_seconds, 3 * kMs, 1e-12);
}

TEST(Simulator, ProgramCopiesAndSwapsShareTheCopyEngines) {
  Model m = chain(5);
  m.ops[1] = {OpKind::copy, 1, kMs, {}, "download", Engine::device_to_host};
  m.buffers.push_back(buffer(2 * kMiB, 0, 5, {0, 4}));
  // A's copy out (1 ms) waits for the program's own device-to-host copy, issued first at op 1.
  const SwapOp op{0, 0, 3, 4, true, std::nullopt};
  const Simulation s = simulate(m, std::vector<SwapOp>{op}, millisecond_link());
  EXPECT_NEAR(s.op_start[1], 0, 1e-12);
  EXPECT_NEAR(s.swaps[0].out_start, 1 * kMs, 1e-12);
  EXPECT_NEAR(s.swaps[0].out_end, 2 * kMs, 1e-12);
}

TEST(Simulator, AnOpIssuedAfterAHostWaitStartsNoEarlierThanTheWaitedOp) {
  Model m;
  m.ops = {{OpKind::copy, 1, 3 * kMs, {}, "upload", Engine::host_to_device},
           {OpKind::kernel, 0, kMs, {}, "a"},
           {OpKind::kernel, 0, kMs, {}, "b", Engine::compute, {0}}};  // after a synchronous upload
  m.buffers.push_back(buffer(kMiB, 0, 3, {0, 1, 2}));
  const Simulation s = simulate(m, {}, millisecond_link());
  EXPECT_NEAR(s.op_start[1], 0, 1e-12);
  EXPECT_NEAR(s.op_start[2], 3 * kMs, 1e-12);
  EXPECT_NEAR(s.iteration_seconds, 4 * kMs, 1e-12);
}

}  // namespace
}  // namespace tidepool::swap
