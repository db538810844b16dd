// Builds the swap model of one iteration from a trace: its launches, copies and sets in issue
// order (captured work left out), their streams, engines, event dependencies and host waits,
// their device durations (DeviceTiming records; an untimed op takes the mean time of its kind, since
// the recorder samples; a cost model when no op of its kind was timed), and every
// device allocation live in the iteration with its accesses. Allocations live across the whole
// window are persistent. A buffer is never swapped when the runtime could not enforce it: it is
// referenced indirectly (IndirectRef), its address was queried or exported (AddressQuery), it was
// live at a launch whose parameters could not be decoded (or a graph launch) anywhere in the
// trace, it was allocated in an earlier iteration and freed in this one, or its accesses differ
// in another recorded iteration.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "analyzer/swap/model.h"
#include "analyzer/trace/event_source.h"
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

// `others`: the other recorded iterations, against which each buffer's accesses are compared
// (persistent buffers by allocation, the iteration's own by their ordinal among its device
// allocations). std::invalid_argument when a window is empty, out of range, or holds no operation.
// From a file read in order (trace/in_order.h) it holds no events but the window's.
Model model_from_trace(const trace::EventSource& source, TraceWindow window,
                       std::span<const TraceWindow> others = {});

}  // namespace tidepool::swap
