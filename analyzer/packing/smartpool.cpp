// SmartPool's heuristic (see heuristics.h).
#include <array>

#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {

Solution solve_smartpool(const Problem& problem, Fit fit, Deadline deadline) {
  return solve_by_gap_passes(problem, std::array{OrderKey::size}, fit, deadline);
}

}  // namespace tidepool::packing
