// Trace → plan.
#include "analyzer/plan/trace_plan.h"

#include <optional>
#include <set>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/iteration/lifetimes.h"
#include "analyzer/plan/fingerprint.h"
#include "analyzer/plan/pool_plan.h"
#include "analyzer/trace/in_order.h"
#include "analyzer/trace/reader.h"

namespace tidepool::plan {
namespace {

// `trace` holds the events only when swaps are planned (they look at each launch's accesses); a
// pool needs the stream alone.
Plan plan_from_stream(const trace::Trace& trace, const iteration::EventStream& stream, std::string_view trace_path,
                      const PlanRequest& request) {
  const iteration::Detection detection = find_iterations(stream, request.iteration);
  const iteration::Range reference = detection.reference_iteration();

  Plan plan;
  plan.source = {std::string(trace_path), trace.header.program, trace.header.synthetic};
  plan.fingerprint = fingerprint(stream, reference);
  plan.iteration = describe(stream, detection);
  std::optional<SwapPlan> swap;
  if (request.swap) {
    SwapRequest swap_request = *request.swap;
    swap_request.beside_pool = request.pool.has_value();
    swap = plan_swap(trace, stream, detection, swap_request);
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
  return plan_from_stream(trace, iteration::event_stream(trace), trace_path, request);
}

FilePlan plan_from_file(const std::filesystem::path& path, const PlanRequest& request) {
  if (request.swap) {
    const trace::Trace trace = trace::read_trace(path);
    return {plan_from_trace(trace, path.string(), request), trace.truncated};
  }
  const trace::InOrderReader reader(path);
  return {plan_from_stream(reader.trace(), iteration::event_stream(reader), path.string(), request), reader.trace().truncated};
}

}  // namespace tidepool::plan
