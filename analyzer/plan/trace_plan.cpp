// Trace → plan.
#include "analyzer/plan/trace_plan.h"

#include <optional>
#include <set>

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
  const iteration::EventStream stream = iteration::event_stream(source);
  const iteration::Detection detection = find_iterations(stream, request.iteration);
  const iteration::Range reference = detection.reference_iteration();

  Plan plan;
  plan.source = {std::string(trace_path), source.tables().header.program,
                 source.tables().header.synthetic};
  plan.fingerprint = fingerprint(stream, reference);
  plan.iteration = describe(stream, detection);
  std::optional<SwapPlan> swap;
  if (request.swap) {
    SwapRequest swap_request = *request.swap;
    swap_request.beside_pool = request.pool.has_value();
    swap::parse_planner(swap_request.planner);  // bad names fail before the model is built
    swap::parse_link(swap_request.link);
    swap = plan_swap(iteration_model(source, stream, detection), stream, detection, swap_request);
  }
  if (request.pool) {
    const auto deadline = packing::Deadline::after_seconds(request.pool->time_limit_seconds);
    plan.pool = plan_pool(iteration::lifetimes(stream, reference), swap ? swap->swapped_ordinals : std::set<std::uint64_t>{},
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
