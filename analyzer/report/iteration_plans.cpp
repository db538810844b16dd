// Runs the pool solvers (analyzer/plan/pool_comparison.h) and the swap planners (analyzer/swap)
// on the trace's detected iteration, for the report.
#include "analyzer/report/iteration_plans.h"

#include <span>
#include <stdexcept>
#include <vector>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/plan/iteration_choice.h"
#include "analyzer/plan/names.h"
#include "analyzer/plan/pool_comparison.h"
#include "analyzer/plan/swap_plan.h"
#include "analyzer/swap/planner.h"

namespace tidepool::report {
namespace {

constexpr double kSlowdownsPct[] = {0, 1, 5};
constexpr swap::Planner kPlanners[] = {swap::Planner::paper, swap::Planner::best};

plan::IterationRequest iteration_request(const PlanOptions& options) {
  if (!options.iteration_marker.empty()) return {plan::BoundaryKind::nvtx_range, options.iteration_marker};
  if (!options.iteration_kernel.empty()) return {plan::BoundaryKind::kernel, options.iteration_kernel};
  return {};
}

void add_swap_rows(const trace::EventSource& source, std::span<const swap::TraceWindow> windows,
                   const swap::Link& link, IterationPlans& out) {
  const swap::Model model = plan::iteration_model(source, windows);
  out.durations_estimated = model.durations_estimated;
  for (const swap::Planner planner : kPlanners) {
    for (const double pct : kSlowdownsPct) {
      const swap::Result result = swap::plan(model, {std::nullopt, pct}, planner, link);
      out.unoptimized_peak_bytes = result.baseline.peak_bytes;
      out.swap.push_back({std::string(swap::to_string(planner)), pct, result.simulated.peak_bytes,
                          result.slowdown_pct(), result.simulated.bytes_out + result.simulated.bytes_in,
                          result.bounds.floor_bytes, result.bounds.link_bound_bytes});
    }
  }
}

}  // namespace

IterationPlans analyze_plans(const trace::EventSource& source, const PlanOptions& options) {
  const swap::Link link = swap::parse_link(options.link);
  IterationPlans out;
  out.solver_seconds = options.solver_seconds;
  out.link = link.name;
  out.link_bytes_per_second = link.bytes_per_second;
  plan::PoolComparison pool;
  std::vector<swap::TraceWindow> windows;
  {  // the stream is released before the swap model's pass, which holds about as much again
    const iteration::EventStream stream = iteration::event_stream(source);
    iteration::Detection detection;
    try {
      detection = plan::find_iterations(stream, iteration_request(options));
      pool = plan::compare_pool_solvers(stream, detection, options.solver_seconds);
    } catch (const std::exception& e) {
      out.no_iteration_reason = e.what();
      return out;
    }
    windows = plan::iteration_windows(source.events(), stream, detection);
  }
  out.boundary = std::string(plan::to_string(pool.iteration.boundary));
  out.period_events = pool.iteration.events;
  out.allocations_per_iteration = pool.iteration.allocations;
  out.operations_per_iteration = pool.iteration.operations;
  out.iterations_seen = pool.iteration.iterations_seen;
  out.regularity = pool.iteration.regularity;
  out.first_boundary = pool.first_boundary;
  out.observed_peak_bytes = pool.observed_peak_bytes;
  out.live_at_start_bytes = pool.live_at_start_bytes;
  out.escaping_bytes = pool.escaping_bytes;
  out.lower_bound_bytes = pool.lower_bound_bytes;
  for (const plan::SolverArena& s : pool.solvers) out.solvers.push_back({s.solver, s.arena_bytes, s.seconds});
  try {
    add_swap_rows(source, windows, link, out);
  } catch (const std::exception& e) {
    out.swap.clear();
    out.swap_error = e.what();
  }
  return out;
}

}  // namespace tidepool::report
