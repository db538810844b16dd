// The operations of one iteration window for the swap model: its launches, copies and sets in
// issue order (captured work left out), with their streams (numbered densely), engines, event
// dependencies on other streams, the host's waits (synchronous copies and frees, stream, event and
// context synchronizations) and their durations from TraceFacts.
#pragma once

#include <span>

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/trace_facts.h"
#include "analyzer/trace/trace.h"

namespace tidepool::swap {

// Appends the window's ops to model.ops (and sets durations_estimated when a cost model filled
// one). `events`: the trace's events [window.begin, window.end) in order, of which only launches,
// copies, sets, graph launches, frees, event records and waits and synchronizations matter
// (window_ops_need); `tables` gives kernel names.
void add_window_ops(std::span<const trace::Event> events, const trace::Trace& tables,
                    const TraceFacts& facts, TraceWindow window, Model& model);

// Whether records of this tag can change the window's ops.
bool window_ops_need(trace::RecordTag tag);

}  // namespace tidepool::swap
