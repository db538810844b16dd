// Greedy placement into gaps (see gap_fit.h).
#include "analyzer/packing/gap_fit.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/time_index.h"

namespace tidepool::packing {

std::vector<Bytes> place_in_gaps(const Problem& problem, const Timeline& timeline,
                                 std::span<const std::size_t> order, Fit fit, Deadline deadline) {
  const auto& items = problem.items;
  std::vector<Bytes> offsets(items.size(), kUnplaced);
  TimeIndex placed(timeline, items.size());
  std::vector<std::size_t> neighbours;
  std::vector<std::pair<Bytes, Bytes>> taken;  // [begin, end) address ranges of the neighbours
  for (std::uint64_t step = 1; const std::size_t i : order) {
    // A step costs the item's time-overlapping neighbours (thousands on large instances).
    if (deadline.passed_at(step, order.size() - step + 1, Deadline::kCostlyStride)) break;
    ++step;
    const Item& item = items[i];
    neighbours.clear();
    placed.overlapping(i, neighbours);
    taken.clear();
    for (const std::size_t n : neighbours) taken.emplace_back(offsets[n], offsets[n] + items[n].size);
    std::ranges::sort(taken);
    Bytes chosen = -1;
    Bytes chosen_gap = std::numeric_limits<Bytes>::max();
    Bytes free_from = 0;  // the end of the merged ranges so far
    for (const auto& [begin, end] : taken) {
      if (begin > free_from) {
        const Bytes offset = align_up(free_from, item.alignment);
        const Bytes gap = begin - free_from;
        if (offset + item.size <= begin && gap < chosen_gap) {
          chosen = offset;
          chosen_gap = gap;
          if (fit == Fit::first) break;
        }
      }
      free_from = std::max(free_from, end);
    }
    offsets[i] = chosen >= 0 ? chosen : align_up(free_from, item.alignment);
    placed.insert(i);
  }
  return offsets;
}

Solution solve_by_gap_passes(const Problem& problem, std::span<const OrderKey> keys, Fit fit, Deadline deadline) {
  const Deadline::Clock::time_point started = Deadline::Clock::now();
  const Timeline timeline(problem);
  const Deadline first_stop = reserving_for_completion(deadline, Deadline::seconds_since(started), problem.items.size());
  Solution best;
  for (const OrderKey key : keys) {
    const bool first = best.offsets.empty();
    std::vector<Bytes> offsets = place_in_gaps(problem, timeline, order_by(problem, key), fit, first ? first_stop : deadline);
    if (!first && !is_complete(offsets)) break;
    Solution candidate = completed(problem, std::move(offsets));
    if (first || candidate.height < best.height) best = std::move(candidate);
  }
  return best;
}

}  // namespace tidepool::packing
