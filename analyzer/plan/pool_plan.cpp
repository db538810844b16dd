// Packing one iteration's allocations.
#include "analyzer/plan/pool_plan.h"

#include <stdexcept>
#include <string>

#include "analyzer/iteration/pool_problem.h"
#include "analyzer/packing/checker.h"
#include "analyzer/packing/solver.h"

namespace tidepool::plan {

PoolSection plan_pool(iteration::IterationLifetimes lifetimes, const std::set<std::uint64_t>& excluded,
                      std::string_view solver, packing::Deadline deadline) {
  const packing::SolverInfo& info = packing::find_solver(solver);
  std::erase_if(lifetimes.allocations, [&](const iteration::IterationAllocation& a) { return excluded.contains(a.ordinal); });
  const packing::Problem problem = iteration::pool_problem(lifetimes);
  const packing::Solution solution = packing::solve(info.name, problem, deadline);
  const packing::Verdict verdict = packing::check(problem, solution);
  if (!verdict.valid)
    throw std::logic_error("the " + std::string(info.name) + " solver gave an invalid packing: " + verdict.reason);

  PoolSection pool;
  pool.solver = std::string(info.name);
  pool.alignment = static_cast<std::uint64_t>(packing::kDeviceAlignment);
  pool.arena_bytes = static_cast<std::uint64_t>(solution.height);
  pool.lower_bound_bytes = static_cast<std::uint64_t>(packing::lower_bound(problem));
  pool.persistent_bytes = lifetimes.live_at_start_bytes;
  for (std::size_t i = 0; i < problem.items.size(); ++i) {
    const packing::Item& item = problem.items[i];
    pool.slots.push_back({std::stoull(item.id), static_cast<std::uint64_t>(item.size),
                          static_cast<std::uint64_t>(solution.offsets[i]),
                          static_cast<std::uint64_t>(item.live.front().lower),
                          static_cast<std::uint64_t>(item.live.front().upper)});
  }
  return pool;
}

}  // namespace tidepool::plan
