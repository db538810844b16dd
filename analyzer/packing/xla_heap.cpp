// XLA's best-fit heap over several orders (see heuristics.h).
#include <array>

#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {

Solution solve_xla_heap(const Problem& problem, Deadline deadline) {
  return solve_by_gap_passes(problem, std::array{OrderKey::size_length, OrderKey::length_size, OrderKey::area}, Fit::best,
                             deadline);
}

}  // namespace tidepool::packing
