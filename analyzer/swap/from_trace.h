// Builds the swap model of one iteration from a trace: its launches, copies and sets in issue
// order (captured work left out), their streams and event dependencies, their device durations
// (DeviceTiming records; a cost model when the trace has none), and every device allocation
// live in the iteration with its accesses. Allocations live across the whole window are
// persistent. Buffers referenced indirectly, and every buffer live at a launch whose parameters
// could not be decoded, are marked as never to be swapped.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "analyzer/swap/model.h"
#include "analyzer/trace/trace.h"

namespace tidepool::swap {

// Half-open range of indices into Trace::events.
struct TraceWindow {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Each push of the NVTX range `name` starts an iteration that lasts until the next push (the
// last one until its pop). Empty when the name never appears.
std::vector<TraceWindow> nvtx_iterations(const trace::Trace& trace, std::string_view name);

// std::invalid_argument when the window is empty, out of range, or holds no operation.
Model model_from_trace(const trace::Trace& trace, TraceWindow window);

}  // namespace tidepool::swap
