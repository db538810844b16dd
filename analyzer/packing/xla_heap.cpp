// XLA's best-fit heap over several orders (see heuristics.h).
#include "analyzer/packing/completion.h"
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

namespace tidepool::packing {

// The first order's pass is completed if the deadline cuts it; a later pass cut is dropped.
Solution solve_xla_heap(const Problem& problem, Deadline deadline) {
  const Deadline::Clock::time_point started = Deadline::Clock::now();
  const Timeline timeline(problem);
  const Deadline first_stop = reserving_for_completion(deadline, Deadline::seconds_since(started), problem.items.size());
  Solution best;
  for (const OrderKey key : {OrderKey::size_length, OrderKey::length_size, OrderKey::area}) {
    const bool first = best.offsets.empty();
    std::vector<Bytes> offsets = place_in_gaps(problem, timeline, order_by(problem, key), Fit::best, first ? first_stop : deadline);
    if (!first && !is_complete(offsets)) break;
    Solution candidate = completed(problem, std::move(offsets));
    if (first || candidate.height < best.height) best = std::move(candidate);
  }
  return best;
}

}  // namespace tidepool::packing
