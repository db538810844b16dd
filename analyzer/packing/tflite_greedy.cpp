// TensorFlow Lite's greedy by size (see heuristics.h).
#include <array>

#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {

Solution solve_tflite_greedy_size(const Problem& problem, Deadline deadline) {
  return solve_by_gap_passes(problem, std::array{OrderKey::size_index}, Fit::best, deadline);
}

}  // namespace tidepool::packing
