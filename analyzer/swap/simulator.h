// The timeline simulator: runs the iteration's operations in issue order on their streams, with
// their dependencies and the host's waits, on the device's engines (engine_timeline.h): one compute
// engine shared by every stream, one host-to-device and one device-to-host copy engine that the
// program's copies share with the plan's swap-ins and swap-outs (the link's bandwidth and latency);
// and tracks device memory over time (buffers in flight count), pinned host memory, and stalls.
//
// Each iteration starts once the previous one has finished on every stream (frameworks
// synchronize with the host once per iteration, e.g. to read the loss); the copy engines carry on
// across the boundary. It simulates three iterations back to back and reports the middle one,
// so that swaps that wrap around the iteration boundary (persistent buffers) are seen in their
// steady state.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "analyzer/swap/link.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {

// When one swap's copies ran in the reported iteration (seconds from its start).
struct SwapTiming {
  double out_start = 0;  // the copy out starts (or, for a clean swap-out, the unmap starts)
  double out_end = 0;
  double release = 0;    // its device memory is free again (after the unmap)
  double in_issue = 0;   // the copy back is issued (its memory is mapped from here)
  double in_start = 0;
  double in_end = 0;
};

// How the buffers that no swap moves hold their memory: each in its own allocation, from its
// allocation to its free (as the program made them), or, beside tidepool's planned pool, the
// iteration's ones (not persistent) in one static arena held over the whole iteration, as high as
// their largest total live size at any op (the packing's lower bound); persistent and swapped
// buffers keep their own allocations.
enum class Placement { own_allocations, static_arena };

struct Simulation {
  double iteration_seconds = 0;  // the steady-state period of one iteration
  double stall_seconds = 0;      // time ops waited for swap-ins and for swap-outs to release
  Bytes peak_bytes = 0;          // device memory, swapped buffers at their rounded size
  double peak_time = 0;          // when the peak is first reached
  Bytes arena_bytes = 0;         // static_arena: the arena's height (part of every figure above)
  std::uint32_t arena_peak_op = 0;  // static_arena: the first op at which the arena's content is highest
  Bytes pinned_peak_bytes = 0;   // host memory holding swapped-out data
  Bytes bytes_out = 0;           // device to host in one iteration
  Bytes bytes_in = 0;            // host to device in one iteration
  std::vector<double> op_start;  // per op, seconds from the iteration's start
  std::vector<double> op_end;
  std::vector<SwapTiming> swaps;  // per swap op, in the order given
};

// The plan must pass check_swap_ops (it is checked; std::invalid_argument otherwise). A plan
// whose iteration would take longer than `give_up_beyond_seconds` is not simulated to the end:
// the result then holds only iteration_seconds = +infinity (for callers that reject such plans).
Simulation simulate(const Model& model, std::span<const SwapOp> plan, const Link& link,
                    Placement placement = Placement::own_allocations,
                    double give_up_beyond_seconds = std::numeric_limits<double>::infinity());

}  // namespace tidepool::swap
