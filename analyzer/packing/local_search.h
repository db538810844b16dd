// Local search over the placement order (iterated greedy): an item that reaches the current
// height is moved to a random earlier place in the order (or two nearby items swap), the order is
// placed again, and the change is kept when the height does not rise. Runs until the height
// reaches `target`, until the time left is shorter than the last iteration took, or once it has
// stalled (no lower height for as long as the last one took to find, and at least a second).
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/placement.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

struct OrderedSolution {
  std::vector<std::size_t> order;
  Placer placer = Placer::gaps_best;
  Solution solution;
};

// Improves `start` (whose solution is the placement of its order); deterministic for a seed.
OrderedSolution improve_order(const Problem& problem, const Timeline& timeline, OrderedSolution start,
                              Bytes target, Deadline deadline, std::uint64_t seed);

}  // namespace tidepool::packing
