// The busy intervals of one simulated engine (see engine_timeline.h).
#include "analyzer/swap/engine_timeline.h"

#include <algorithm>

namespace tidepool::swap {

double EngineTimeline::place_in_gap(double ready, double seconds) {
  // The first interval that ends after `ready`; walk the gaps from there.
  auto it = std::upper_bound(busy_.begin(), busy_.end(), ready, [](double t, const Busy& b) { return t < b.end; });
  double start = ready;
  while (it != busy_.end() && it->start < start + seconds) {
    start = std::max(start, it->end);
    ++it;
  }
  const double end = start + seconds;
  // Merge with the interval before (ending at start) and the one after (starting at end).
  const bool joins_before = it != busy_.begin() && std::prev(it)->end == start;
  const bool joins_after = it != busy_.end() && it->start == end;
  if (joins_before && joins_after) {
    std::prev(it)->end = it->end;
    busy_.erase(it);
  } else if (joins_before) {
    std::prev(it)->end = end;
  } else if (joins_after) {
    it->start = start;
  } else {
    busy_.insert(it, {start, end});
  }
  return start;
}

}  // namespace tidepool::swap
