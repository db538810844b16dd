// The online best-fit allocator with coalescing (see heuristics.h). Free blocks live in two
// indexes, by offset (to coalesce neighbours) and by size (to find the best fit); the free space
// above the highest block in use is the top of the pool, which grows when nothing fits.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/heuristics.h"

namespace tidepool::packing {
namespace {

class FreeBlocks {
 public:
  // A pool whose addresses begin at `floor`.
  explicit FreeBlocks(Bytes floor) : top_(floor) {}

  // Takes the best-fitting block for `size` at `alignment`, or grows the top; returns the offset.
  Bytes allocate(Bytes size, Bytes alignment) {
    for (auto it = by_size_.lower_bound({size, 0}); it != by_size_.end(); ++it) {
      const auto [block_size, block_offset] = *it;
      const Bytes offset = align_up(block_offset, alignment);
      if (offset + size > block_offset + block_size) continue;
      remove(block_offset, block_size);
      if (offset > block_offset) add(block_offset, offset - block_offset);
      if (offset + size < block_offset + block_size) add(offset + size, block_offset + block_size - offset - size);
      return offset;
    }
    const Bytes offset = align_up(top_, alignment);
    if (offset > top_) add(top_, offset - top_);
    top_ = offset + size;
    return offset;
  }

  void release(Bytes offset, Bytes size) {
    auto next = by_offset_.lower_bound(offset);
    if (next != by_offset_.end() && next->first == offset + size) {
      size += next->second;
      remove(next->first, next->second);
    }
    auto below = by_offset_.lower_bound(offset);
    if (below != by_offset_.begin()) {
      --below;
      if (below->first + below->second == offset) {
        offset = below->first;
        size += below->second;
        remove(below->first, below->second);
      }
    }
    if (offset + size == top_) {
      top_ = offset;  // the block joins the free top of the pool
    } else {
      add(offset, size);
    }
  }

 private:
  void add(Bytes offset, Bytes size) {
    by_offset_.emplace(offset, size);
    by_size_.emplace(size, offset);
  }
  void remove(Bytes offset, Bytes size) {
    by_offset_.erase(offset);
    by_size_.erase({size, offset});
  }

  std::map<Bytes, Bytes> by_offset_;
  std::set<std::pair<Bytes, Bytes>> by_size_;
  Bytes top_;
};

}  // namespace

void place_online_bestfit(const Problem& problem, Bytes floor, std::vector<Bytes>& offsets) {
  const auto& items = problem.items;
  // (time, 0 = free / 1 = allocate, item): frees first, as intervals are half-open.
  std::vector<std::tuple<Time, int, std::size_t>> events;
  events.reserve(2 * items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (offsets[i] != kUnplaced) continue;
    events.emplace_back(first_start(items[i]), 1, i);
    events.emplace_back(last_end(items[i]), 0, i);
  }
  std::ranges::sort(events);
  FreeBlocks pool(floor);
  for (const auto& [time, is_allocation, i] : events) {
    if (is_allocation) {
      offsets[i] = pool.allocate(items[i].size, items[i].alignment);
    } else {
      pool.release(offsets[i], items[i].size);
    }
  }
}

Solution solve_online_bestfit(const Problem& problem) {
  Solution solution;
  solution.offsets.assign(problem.items.size(), kUnplaced);
  place_online_bestfit(problem, 0, solution.offsets);
  solution.height = height_of(problem, solution.offsets);
  return solution;
}

}  // namespace tidepool::packing
