// TensorFlow Lite's greedy by size (see heuristics.h).
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

namespace tidepool::packing {

Solution solve_tflite_greedy_size(const Problem& problem) {
  const Timeline timeline(problem);
  Solution solution;
  solution.offsets =
      place_in_gaps(problem, timeline, order_by(problem, OrderKey::size_index), Fit::best, Deadline::never());
  solution.height = height_of(problem, solution.offsets);
  return solution;
}

}  // namespace tidepool::packing
