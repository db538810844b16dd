// SmartPool's heuristic (see heuristics.h).
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

namespace tidepool::packing {

Solution solve_smartpool(const Problem& problem, Fit fit) {
  const Timeline timeline(problem);
  Solution solution;
  solution.offsets = place_in_gaps(problem, timeline, order_by(problem, OrderKey::size), fit, Deadline::never());
  solution.height = height_of(problem, solution.offsets);
  return solution;
}

}  // namespace tidepool::packing
