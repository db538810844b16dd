// Builds the report of one trace: memory counted as simcuda counts it, the allocations live at the
// peak and at the end, kernels, sizes, allocation sites with symbolized stacks, runtime decisions.
#pragma once

#include <string>

#include "analyzer/report/report.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::report {

// Stacks are symbolized from the trace's module list (analyzer/symbolize): the modules' files are
// read when they still exist with the same build id. A source read from a file in order is read a
// few times over (every event once, the memory events up to the peak once more, and the runtime's
// decisions), never held.
ProcessReport analyze(const trace::EventSource& source, const std::string& trace_path);

}  // namespace tidepool::report
