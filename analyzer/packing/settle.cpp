// Settling a packing (see settle.h): first fit in the order of offsets, the right way up and upside
// down in turn.
#include "analyzer/packing/settle.h"

#include <algorithm>
#include <numeric>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/placement.h"

namespace tidepool::packing {
namespace {

// Each item's place in the packing turned upside down within `height`.
std::vector<Bytes> upside_down(const Problem& problem, const std::vector<Bytes>& offsets,
                               Bytes height) {
  std::vector<Bytes> turned(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i)
    turned[i] = height - offsets[i] - problem.items[i].size;
  return turned;
}

// The fall: first fit in the order of offsets. Empty if the deadline cut it.
std::vector<Bytes> fall(const Problem& problem, const Timeline& timeline,
                        const std::vector<Bytes>& offsets, Deadline deadline) {
  std::vector<Bytes> fallen =
      place(problem, timeline, order_by_offset(offsets), Placer::gaps_first, deadline);
  if (!is_complete(fallen)) fallen.clear();
  return fallen;
}

}  // namespace

std::vector<std::size_t> order_by_offset(const std::vector<Bytes>& offsets) {
  std::vector<std::size_t> order(offsets.size());
  std::iota(order.begin(), order.end(), 0);
  std::ranges::stable_sort(order, {}, [&](std::size_t i) { return offsets[i]; });
  return order;
}

Settled settle(const Problem& problem, const Timeline& timeline, std::vector<Bytes> offsets,
               Deadline deadline) {
  Settled settled{std::move(offsets)};
  Bytes height = height_of(problem, settled.offsets);
  for (bool lowered = true; lowered && !deadline.passed();) {
    lowered = false;
    const Deadline::Clock::time_point started = Deadline::Clock::now();
    std::vector<Bytes> fallen = fall(problem, timeline, settled.offsets, deadline);
    if (fallen.empty()) break;
    if (settled.fall_seconds == 0) settled.fall_seconds = Deadline::seconds_since(started);
    // Up: a fall upside down, turned back within the same height, and a fall again. A fall places
    // every item afresh (the offsets it is given are only its order), so what it returns is valid
    // even where turning misaligned an item; it is kept only if it is no higher.
    const Bytes fallen_height = height_of(problem, fallen);
    std::vector<Bytes> risen =
        fall(problem, timeline, upside_down(problem, fallen, fallen_height), deadline);
    if (risen.empty()) break;
    fallen = fall(problem, timeline, upside_down(problem, risen, fallen_height), deadline);
    if (fallen.empty()) break;
    const Bytes fallen_to = height_of(problem, fallen);
    lowered = fallen_to < height;
    if (fallen_to <= height) {
      settled.offsets = std::move(fallen);
      height = fallen_to;
    }
  }
  return settled;
}

}  // namespace tidepool::packing
