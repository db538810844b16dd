// Completion of a partial packing above it (see completion.h).
#include "analyzer/packing/completion.h"

#include <algorithm>

#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {

bool is_complete(const std::vector<Bytes>& offsets) {
  return std::ranges::find(offsets, kUnplaced) == offsets.end();
}

void complete_above(const Problem& problem, std::vector<Bytes>& offsets) {
  Bytes top = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    if (offsets[i] != kUnplaced) top = std::max(top, offsets[i] + problem.items[i].size);
  }
  place_online_bestfit(problem, top, offsets);
}

Solution completed(const Problem& problem, std::vector<Bytes> offsets) {
  if (!is_complete(offsets)) complete_above(problem, offsets);
  const Bytes height = height_of(problem, offsets);
  return {std::move(offsets), height};
}

Deadline reserving_for_completion(Deadline deadline, double timeline_seconds, std::size_t items) {
  constexpr double kCompletionPerTimeline = 10;
  return deadline.reserving_per_item(kCompletionPerTimeline * timeline_seconds / static_cast<double>(std::max<std::size_t>(items, 1)));
}

}  // namespace tidepool::packing
