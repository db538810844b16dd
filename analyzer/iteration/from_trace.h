// The event stream of a trace: device allocations an arena could serve (cuMemAlloc, pitched,
// stream-ordered and pool allocations) and their frees, kernel launches, copies and sets, and
// NVTX range pushes as marks. Work captured into a graph is left out (it does not run there);
// a graph launch is one launch named "<graph>". A context's destruction frees what it held.
#pragma once

#include "analyzer/iteration/event_stream.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::iteration {

// From a file read in order (trace/in_order.h) it holds no trace events: about 40 bytes a stream
// event where a Trace takes 130 or more per event. Event::source is the event's index in
// Trace::events.
EventStream event_stream(const trace::EventSource& source);

}  // namespace tidepool::iteration
