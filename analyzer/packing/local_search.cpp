// The iterated greedy of local_search.h.
#include "analyzer/packing/local_search.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "analyzer/packing/completion.h"

namespace tidepool::packing {
namespace {

constexpr double kMinStallSeconds = 1.0;

}  // namespace

OrderedSolution improve_order(const Problem& problem, const Timeline& timeline, OrderedSolution start,
                              Bytes target, Deadline deadline, std::uint64_t seed) {
  const auto& items = problem.items;
  const std::size_t n = items.size();
  OrderedSolution current = std::move(start);
  if (n < 2) return current;
  std::mt19937_64 random(seed);
  std::vector<std::size_t> position(n);
  std::vector<std::size_t> peak_positions;
  // An iteration is not started when the last one would not fit in the time left, nor once the
  // search has stalled: no lower height for as long as it took to find the last one (at least
  // kMinStallSeconds).
  using Clock = Deadline::Clock;
  const auto seconds_since = [](Clock::time_point from) { return std::chrono::duration<double>(Clock::now() - from).count(); };
  const Clock::time_point begun = Clock::now();
  Clock::time_point improved = begun;
  double last_seconds = 0;
  while (current.solution.height > target && deadline.seconds_left() > last_seconds &&
         seconds_since(improved) < std::max(kMinStallSeconds, std::chrono::duration<double>(improved - begun).count())) {
    const Clock::time_point started = Clock::now();
    std::vector<std::size_t> order = current.order;
    for (std::size_t k = 0; k < n; ++k) position[order[k]] = k;
    peak_positions.clear();
    for (std::size_t i = 0; i < n; ++i) {
      if (current.solution.offsets[i] + items[i].size == current.solution.height) peak_positions.push_back(position[i]);
    }
    const std::size_t from = peak_positions[random() % peak_positions.size()];
    if (random() % 4 != 0 && from > 0) {
      // Move a peak item earlier.
      const std::size_t to = random() % from;
      std::rotate(order.begin() + to, order.begin() + from, order.begin() + from + 1);
    } else {
      // Swap a peak item with a nearby one.
      const std::size_t span = std::min<std::size_t>(n - 1, 16);
      const std::size_t lo = from >= span ? from - span : 0;
      const std::size_t hi = std::min(n - 1, from + span);
      std::swap(order[from], order[lo + random() % (hi - lo + 1)]);
    }
    std::vector<Bytes> offsets = place(problem, timeline, order, current.placer, deadline);
    if (!is_complete(offsets)) break;
    const Bytes height = height_of(problem, offsets);
    if (height < current.solution.height) improved = Clock::now();
    if (height <= current.solution.height) {
      current.order = std::move(order);
      current.solution = {std::move(offsets), height};
    }
    last_seconds = seconds_since(started);
  }
  return current;
}

}  // namespace tidepool::packing
