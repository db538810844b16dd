// IterationLifetimes → packing::Problem.
#include "analyzer/iteration/pool_problem.h"

#include <string>

namespace tidepool::iteration {

packing::Problem pool_problem(const IterationLifetimes& lifetimes) {
  packing::Problem problem;
  for (const IterationAllocation& a : lifetimes.allocations) {
    if (a.persistent || a.bytes == 0) continue;
    const auto begin = static_cast<packing::Time>(a.begin);
    const auto end = static_cast<packing::Time>(a.end);
    problem.items.push_back({std::to_string(a.ordinal), static_cast<packing::Bytes>(a.bytes),
                             packing::kDeviceAlignment, {{begin, end}}});
  }
  return problem;
}

}  // namespace tidepool::iteration
