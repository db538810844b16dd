// Lowest-first placement (see lowest_first.h). Each queued key is a lower bound of the item's
// offset (floors only rise), so a popped item whose offset has risen is queued again, and one
// whose key still holds is the lowest of all.
#include "analyzer/packing/lowest_first.h"

#include <algorithm>
#include <queue>
#include <tuple>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/max_tree.h"

namespace tidepool::packing {
namespace {

Bytes lowest_offset(const MaxTree& floors, const Timeline& timeline, const Item& item, std::size_t i) {
  Bytes floor = 0;
  for (const SectionRange range : timeline.ranges(i)) floor = std::max(floor, floors.max(range));
  return align_up(floor, item.alignment);
}

}  // namespace

std::vector<Bytes> place_lowest_first(const Problem& problem, const Timeline& timeline,
                                      std::span<const std::uint32_t> rank, Deadline deadline) {
  const auto& items = problem.items;
  std::vector<Bytes> offsets(items.size(), kUnplaced);
  MaxTree floors(timeline.section_count());
  using Entry = std::tuple<Bytes, std::uint32_t, std::size_t>;  // offset bound, rank, item
  std::vector<Entry> initial;
  initial.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) initial.emplace_back(0, rank[i], i);
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue(std::greater<>(), std::move(initial));
  for (std::uint64_t step = 1; !queue.empty() && !deadline.passed_at(step, queue.size()); ++step) {
    const auto [bound, item_rank, i] = queue.top();
    queue.pop();
    const Bytes offset = lowest_offset(floors, timeline, items[i], i);
    if (offset > bound) {
      queue.emplace(offset, item_rank, i);
      continue;
    }
    offsets[i] = offset;
    for (const SectionRange range : timeline.ranges(i)) floors.raise(range, offset + items[i].size);
  }
  return offsets;
}

}  // namespace tidepool::packing
