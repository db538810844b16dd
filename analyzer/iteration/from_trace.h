// The event stream of a trace: device allocations an arena could serve (cuMemAlloc, pitched,
// stream-ordered and pool allocations) and their frees, kernel launches, copies and sets, and
// NVTX range pushes as marks. Work captured into a graph is left out (it does not run there);
// a graph launch is one launch named "<graph>". A context's destruction frees what it held.
#pragma once

#include "analyzer/iteration/event_stream.h"
#include "analyzer/trace/in_order.h"
#include "analyzer/trace/trace.h"

namespace tidepool::iteration {

EventStream event_stream(const trace::Trace& trace);

// The same from a trace file read in order (trace/in_order.h), without holding its events: about
// 40 bytes a stream event where the trace takes 130 or more per event. Event::source is the index
// the event has in the trace read whole.
EventStream event_stream(const trace::InOrderReader& reader);

}  // namespace tidepool::iteration
