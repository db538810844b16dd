// Every solver on the trace's iteration.
#include "analyzer/plan/pool_comparison.h"

#include <chrono>

#include "analyzer/iteration/lifetimes.h"
#include "analyzer/iteration/pool_problem.h"
#include "analyzer/packing/solver.h"

namespace tidepool::plan {

PoolComparison compare_pool_solvers(const iteration::EventStream& stream,
                                    const iteration::Detection& detection,
                                    double seconds_per_solver) {
  const iteration::IterationLifetimes lifetimes = iteration::lifetimes(stream, detection.reference_iteration());
  const packing::Problem problem = iteration::pool_problem(lifetimes);

  PoolComparison out;
  out.iteration = describe(stream, detection);
  out.first_boundary = detection.first_boundary();
  out.observed_peak_bytes = lifetimes.peak_bytes;
  out.live_at_start_bytes = lifetimes.live_at_start_bytes;
  out.escaping_bytes = lifetimes.persistent_bytes();
  out.lower_bound_bytes = static_cast<std::uint64_t>(packing::lower_bound(problem));
  for (const packing::SolverInfo& solver : packing::solvers()) {
    const auto start = std::chrono::steady_clock::now();
    const packing::Solution solution = packing::solve(solver.name, problem, packing::Deadline::after_seconds(seconds_per_solver));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.solvers.push_back({std::string(solver.name), static_cast<std::uint64_t>(solution.height), seconds});
  }
  return out;
}

}  // namespace tidepool::plan
