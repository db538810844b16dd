// The optimized-run trace. Device memory after each step, in MiB: "program" is what the program
// has requested, "held" what the decisions leave on the device (optimized_memory.h):
//   weights 8, act 8, grad 4 (recording, all from the driver)        program 20  held 20
//   free act, grad; plan installed (arena 12, planned peak 20)        program  8  held  8
//   act 8 and grad 4 served by the arena (hits): the arena exists     program 20  held 20
//   weights swapped out (8)                                           program 20  held 12
//   big 8 from the driver (a miss, then a fallback)                   program 28  held 20
//   free big; weights swapped in on demand (a miss, 4 us stalled)     program 20  held 20
//   free grad, act (the arena stays while its plan is in force)       program  8  held 20
//   act2 2 (a miss), swapped out and in, freed                        program 10  held 22 at most
//   return to recording: the arena, empty, is gone                    program  8  held  8
//   idle 1, evicted; rescued 3; frees                                 program 12  held 11 at most
// Peaks: program 28, held 22, planned 20.
#include "decisions_trace.h"

#include "trace_builder.h"

namespace tidepool::report::testing {

using trace::AllocKind;

trace::Trace decisions_trace() {
  constexpr uint64_t MiB = DecisionsExpected::kMiB;
  TraceBuilder b(5151, -1);
  trace::Trace& t = b.trace();
  t.header.host = "golden-host";
  t.header.program = "train_tiny";
  t.header.source = "tidepool tests (runtime decisions)";
  b.add(trace::ContextCreate{.context = 1, .device = 0, .primary = true});
  const uint64_t weights = b.alloc(AllocKind::device, 8 * MiB);
  // Iteration 1, recorded.
  uint64_t act = b.alloc(AllocKind::device, 8 * MiB);
  uint64_t grad = b.alloc(AllocKind::device, 4 * MiB);
  b.launch("step", {weights, act, grad});
  b.free(grad);
  b.free(act);
  b.add(trace::PlanInstalled{.fingerprint_id = b.string("fp-0123abcd"), .arena_bytes = 12 * MiB,
                             .planned_peak_bytes = 20 * MiB, .swaps = 1});
  // Iteration 2, served from the arena; the weights go out to host memory for a while.
  act = b.alloc(AllocKind::device, 8 * MiB);
  b.add(trace::PoolHit{.alloc_id = act, .offset = 0});
  grad = b.alloc(AllocKind::device, 4 * MiB);
  b.add(trace::PoolHit{.alloc_id = grad, .offset = 8 * MiB});
  b.add(trace::SwapOut{.alloc_id = weights, .bytes = 8 * MiB, .start_ns = 1000, .end_ns = 3000});
  const uint64_t big = b.alloc(AllocKind::device, 8 * MiB);
  b.add(trace::PoolMiss{.alloc_id = big, .reason_id = b.string("size differs from the plan")});
  b.add(trace::Fallback{.alloc_id = big, .reason_id = b.string("no planned slot")});
  b.launch("step", {act, grad, big});
  b.free(big);
  b.add(trace::SwapIn{.alloc_id = weights, .bytes = 8 * MiB, .start_ns = 5000, .end_ns = 9000,
                      .on_demand = true});
  b.launch("step", {weights, act, grad});
  b.free(grad);
  b.free(act);
  // Another miss, then a planned swap pair; then the program strays and tidepool records again.
  const uint64_t act2 = b.alloc(AllocKind::device, 2 * MiB);
  b.add(trace::PoolMiss{.alloc_id = act2, .reason_id = b.string("size differs from the plan")});
  b.add(trace::SwapOut{.alloc_id = act2, .bytes = 2 * MiB, .start_ns = 10000, .end_ns = 12000});
  b.add(trace::SwapIn{.alloc_id = act2, .bytes = 2 * MiB, .start_ns = 13000, .end_ns = 15000});
  b.free(act2);
  b.add(trace::ReturnToRecording{.reason_id = b.string("misses above 10% of the iteration")});
  // Recording again, with rescue: an idle buffer evicted so that an allocation succeeds.
  const uint64_t idle = b.alloc(AllocKind::device, 1 * MiB);
  b.add(trace::Eviction{.alloc_id = idle, .bytes = 1 * MiB});
  const uint64_t rescued = b.alloc(AllocKind::device, 3 * MiB);
  b.free(rescued);
  b.free(idle);
  b.free(weights);
  return t;
}

}  // namespace tidepool::report::testing
