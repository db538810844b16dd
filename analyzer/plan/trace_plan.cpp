// Trace → plan.
#include "analyzer/plan/trace_plan.h"

#include <optional>
#include <set>
#include <vector>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/iteration/lifetimes.h"
#include "analyzer/plan/fingerprint.h"
#include "analyzer/plan/pool_plan.h"
#include "analyzer/swap/link.h"
#include "analyzer/swap/planner.h"
#include "analyzer/trace/in_order.h"

namespace tidepool::plan {

Plan plan_from_trace(const trace::EventSource& source, std::string_view trace_path,
                     const PlanRequest& request) {
  if (request.swap) {  // bad names fail before the trace is read
    swap::parse_planner(request.swap->planner);
    swap::parse_link(request.swap->link);
  }
  Plan plan;
  plan.source = {std::string(trace_path), source.tables().header.program,
                 source.tables().header.synthetic};
  // What the plan takes from the event stream, so that the stream (32 bytes a trace event) is
  // released before the swap model's own pass over the trace, which holds about as much.
  std::optional<iteration::IterationLifetimes> lifetimes;
  std::vector<swap::TraceWindow> windows;
  BufferRefs refs;
  {
    const iteration::EventStream stream = iteration::event_stream(source);
    const iteration::Detection detection = find_iterations(stream, request.iteration);
    const iteration::Range reference = detection.reference_iteration();
    plan.fingerprint = fingerprint(stream, reference);
    plan.iteration = describe(stream, detection);
    if (request.pool) lifetimes = iteration::lifetimes(stream, reference);
    if (request.swap) {
      windows = iteration_windows(source.events(), stream, detection);
      refs = buffer_refs(stream, reference);
    }
  }
  std::optional<SwapPlan> swap;
  if (request.swap) {
    SwapRequest swap_request = *request.swap;
    swap_request.beside_pool = request.pool.has_value();
    swap = plan_swap(iteration_model(source, windows), refs, swap_request);
  }
  if (request.pool) {
    const auto deadline = packing::Deadline::after_seconds(request.pool->time_limit_seconds);
    plan.pool =
        plan_pool(std::move(*lifetimes), swap ? swap->swapped_ordinals : std::set<std::uint64_t>{},
                  request.pool->solver, deadline);
  }
  if (swap) {
    // Beside a pool, the peak is the arena (static) plus what stays outside it over time.
    if (plan.pool) swap->section.planned_peak_bytes = peak_with_pool(*swap, *plan.pool);
    plan.swap = std::move(swap->section);
  }
  return plan;
}

FilePlan plan_from_file(const std::filesystem::path& path, const PlanRequest& request) {
  const trace::InOrderReader reader(path);
  return {plan_from_trace(reader, path.string(), request), reader.trace().truncated};
}

}  // namespace tidepool::plan
