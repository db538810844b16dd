// The operations of one iteration window for the swap model: its launches, copies and sets in
// issue order (captured work left out), with their streams (numbered densely), engines, event
// dependencies on other streams, the host's waits (synchronous copies and frees, stream, event and
// context synchronizations) and their durations from TraceFacts.
#pragma once

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/trace_facts.h"
#include "analyzer/trace/trace.h"

namespace tidepool::swap {

// Appends the window's ops to model.ops (and sets durations_estimated when a cost model filled one).
void add_window_ops(const trace::Trace& trace, const TraceFacts& facts, TraceWindow window, Model& model);

}  // namespace tidepool::swap
