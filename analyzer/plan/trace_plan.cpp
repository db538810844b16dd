// Trace → plan.
#include "analyzer/plan/trace_plan.h"

#include "analyzer/iteration/from_trace.h"
#include "analyzer/iteration/lifetimes.h"
#include "analyzer/plan/fingerprint.h"
#include "analyzer/plan/pool_plan.h"

namespace tidepool::plan {

Plan plan_from_trace(const trace::Trace& trace, std::string_view trace_path, const PlanRequest& request) {
  const iteration::EventStream stream = iteration::event_stream(trace);
  const iteration::Detection detection = find_iterations(stream, request.iteration);
  const iteration::Range reference = detection.reference_iteration();

  Plan plan;
  plan.source = {std::string(trace_path), trace.header.program, trace.header.synthetic};
  plan.fingerprint = fingerprint(stream, reference);
  plan.iteration = describe(stream, detection);
  std::set<std::uint64_t> swapped;
  if (request.swap) {
    SwapPlan swap = plan_swap(trace, stream, reference, *request.swap);
    plan.swap = std::move(swap.section);
    swapped = std::move(swap.swapped_ordinals);
  }
  if (request.pool) {
    const auto deadline = packing::Deadline::after_seconds(request.pool->time_limit_seconds);
    plan.pool = plan_pool(iteration::lifetimes(stream, reference), swapped, request.pool->solver, deadline);
  }
  return plan;
}

}  // namespace tidepool::plan
