// The part of a trace the runtime plans from after it went back to recording: the events after a
// cut (a sequence number), preceded by the Alloc records of the plannable allocations still live
// at the cut, in allocation order, so that "program" ordinals count those first, as the runtime
// renumbers them at the cut.
#pragma once

#include <cstdint>

#include "analyzer/trace/trace.h"

namespace tidepool::runtime::optimize {

struct TraceWindow {
  trace::Trace trace;
  uint64_t carried_allocations = 0;  // Alloc records carried over from before the cut
};

// after_seq 0: the whole trace.
TraceWindow trace_since(trace::Trace whole, uint64_t after_seq);

}  // namespace tidepool::runtime::optimize
