// SmartPool's heuristic (see heuristics.h).
#include "analyzer/packing/completion.h"
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

namespace tidepool::packing {

Solution solve_smartpool(const Problem& problem, Fit fit, Deadline deadline) {
  const Deadline::Clock::time_point started = Deadline::Clock::now();
  const Timeline timeline(problem);
  const Deadline stop = reserving_for_completion(deadline, Deadline::seconds_since(started), problem.items.size());
  return completed(problem, place_in_gaps(problem, timeline, order_by(problem, OrderKey::size), fit, stop));
}

}  // namespace tidepool::packing
