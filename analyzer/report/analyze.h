// Builds the report of one trace: memory counted as simcuda counts it, the allocations live at the
// peak and at the end, kernels, sizes, allocation sites with symbolized stacks, runtime decisions.
#pragma once

#include <string>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

// Stacks are symbolized from the trace's module list (analyzer/symbolize): the modules' files are
// read when they still exist with the same build id.
ProcessReport analyze(const trace::Trace& trace, const std::string& trace_path);

}  // namespace tidepool::report
