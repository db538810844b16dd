// A plan from a trace: find the iteration, then plan its pool (lifetimes packed into one arena)
// and/or its swaps, and describe the iteration so the runtime can recognise it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "analyzer/plan/iteration_choice.h"
#include "analyzer/plan/plan.h"
#include "analyzer/plan/swap_plan.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::plan {

struct PoolRequest {
  std::string solver = "best";
  double time_limit_seconds = 10;
};

struct PlanRequest {
  IterationRequest iteration;
  std::optional<PoolRequest> pool;
  std::optional<SwapRequest> swap;
};

// Throws std::runtime_error (one line) when the trace has no usable iteration, and
// std::invalid_argument for an unknown solver, planner, link or a bad target. When both are
// planned, the swaps are planned beside the pool (SwapRequest::beside_pool), the buffers they move
// are left out of the pool (they get mappings of their own), and the swap section's planned peak is
// the simulated peak beside the pool's actual arena (peak_with_pool).
// A Trace, or a trace file read in order (trace/in_order.h): then the pool is planned from its
// event stream (iteration/from_trace.h) and swaps from TraceFacts and the events of the iteration
// they model (swap/from_trace.h), none holding the trace.
Plan plan_from_trace(const trace::EventSource& source, std::string_view trace_path,
                     const PlanRequest& request);

// From a trace file, read in order. Also throws trace::TraceError for a file that cannot be read.
struct FilePlan {
  Plan plan;
  bool truncated = false;  // the file ended inside a record: planned from what came before
};
FilePlan plan_from_file(const std::filesystem::path& path, const PlanRequest& request);

}  // namespace tidepool::plan
