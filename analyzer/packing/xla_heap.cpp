// XLA's best-fit heap over several orders (see heuristics.h).
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

namespace tidepool::packing {

Solution solve_xla_heap(const Problem& problem) {
  const Timeline timeline(problem);
  Solution best;
  for (const OrderKey key : {OrderKey::size_length, OrderKey::length_size, OrderKey::area}) {
    Solution candidate;
    candidate.offsets = place_in_gaps(problem, timeline, order_by(problem, key), Fit::best, Deadline::never());
    candidate.height = height_of(problem, candidate.offsets);
    if (best.offsets.empty() || candidate.height < best.height) best = std::move(candidate);
  }
  return best;
}

}  // namespace tidepool::packing
