// Per kernel (by name): launches and the memory their parameters point into.
#pragma once

#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

// Kernels by bytes touched, most first (ties by name). Captured launches (recorded into a graph,
// not run) are left out.
std::vector<KernelTotals> kernel_totals(const trace::Trace& trace);

}  // namespace tidepool::report
