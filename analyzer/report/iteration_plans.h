// The report's "Iteration and plans" section: the trace's iteration, what each pool solver would
// give it against the lower bound, and the swap planners' peak at 0, 1 and 5 % allowed slowdown
// beside the floor and the link bound.
#pragma once

#include <string>

#include "analyzer/report/report.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::report {

struct PlanOptions {
  double solver_seconds = 0.5;  // time limit of each pool solver
  std::string link = "pcie5";   // pcie4 | pcie5 | nvlink-c2c | GB/s
  // At most one: each push of this NVTX range, or each launch of this kernel, starts an
  // iteration. Neither: the iteration is found from the period of the event stream.
  std::string iteration_marker;
  std::string iteration_kernel;
};

// Never throws for a trace without an iteration or whose iteration the swap model rejects: the
// reason is recorded instead. Throws std::invalid_argument for a bad link. A source read from a
// file in order is read a few times over, never held.
IterationPlans analyze_plans(const trace::EventSource& source, const PlanOptions& options);

}  // namespace tidepool::report
