// Dispatch to the greedy placement rules (see placement.h).
#include "analyzer/packing/placement.h"

#include "analyzer/packing/gap_fit.h"
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/lowest_first.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/skyline_fit.h"

namespace tidepool::packing {

std::vector<Bytes> place(const Problem& problem, const Timeline& timeline,
                         std::span<const std::size_t> order, Placer placer, Deadline deadline) {
  switch (placer) {
    case Placer::gaps_best: return place_in_gaps(problem, timeline, order, Fit::best, deadline);
    case Placer::gaps_first: return place_in_gaps(problem, timeline, order, Fit::first, deadline);
    case Placer::lowest_first: return place_lowest_first(problem, timeline, ranks_of(order), deadline);
    case Placer::free_blocks: return place_in_free_blocks(problem, order, deadline);
    case Placer::skyline: break;
  }
  return place_skyline(problem, timeline, ranks_of(order), deadline);
}

}  // namespace tidepool::packing
