// Trace → plan.
#include "analyzer/plan/trace_plan.h"

#include <functional>
#include <optional>
#include <set>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/iteration/lifetimes.h"
#include "analyzer/plan/fingerprint.h"
#include "analyzer/plan/pool_plan.h"
#include "analyzer/trace/in_order.h"
#include "analyzer/swap/link.h"
#include "analyzer/swap/planner.h"

namespace tidepool::plan {
namespace {

// The swap model of a detection's reference iteration (iteration_model over the trace or its file).
using ModelOf = std::function<swap::Model(const iteration::Detection&)>;

// `tables`: the trace's header and strings; its events are not looked at.
Plan plan_from_stream(const trace::Trace& tables, const iteration::EventStream& stream, std::string_view trace_path,
                      const PlanRequest& request, const ModelOf& model_of) {
  const iteration::Detection detection = find_iterations(stream, request.iteration);
  const iteration::Range reference = detection.reference_iteration();

  Plan plan;
  plan.source = {std::string(trace_path), tables.header.program, tables.header.synthetic};
  plan.fingerprint = fingerprint(stream, reference);
  plan.iteration = describe(stream, detection);
  std::optional<SwapPlan> swap;
  if (request.swap) {
    SwapRequest swap_request = *request.swap;
    swap_request.beside_pool = request.pool.has_value();
    swap::parse_planner(swap_request.planner);  // bad names fail before the model is built
    swap::parse_link(swap_request.link);
    swap = plan_swap(model_of(detection), stream, detection, swap_request);
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

}  // namespace

Plan plan_from_trace(const trace::Trace& trace, std::string_view trace_path, const PlanRequest& request) {
  const iteration::EventStream stream = iteration::event_stream(trace);
  return plan_from_stream(trace, stream, trace_path, request,
                          [&](const iteration::Detection& d) { return iteration_model(trace, stream, d); });
}

FilePlan plan_from_file(const std::filesystem::path& path, const PlanRequest& request) {
  const trace::InOrderReader reader(path);
  const iteration::EventStream stream = iteration::event_stream(reader);
  return {plan_from_stream(reader.trace(), stream, path.string(), request,
                           [&](const iteration::Detection& d) { return iteration_model(reader, stream, d); }),
          reader.trace().truncated};
}

}  // namespace tidepool::plan
