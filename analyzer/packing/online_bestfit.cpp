// The online best-fit allocator with coalescing (see heuristics.h), and the placement rule that
// runs it with each time's allocations in a given order. Free blocks live in two
// indexes, by offset (to coalesce neighbours) and by size (to find the best fit); the free space
// above the highest block in use is the top of the pool, which grows when nothing fits.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <tuple>
#include <vector>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/heuristics.h"
#include "analyzer/packing/orders.h"

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

// The allocator over the items at kUnplaced, in time order (frees first at one time, as intervals
// are half-open; allocations at one time by `rank`, lowest first), in a pool whose addresses begin
// at `floor`. At the deadline it stops: what it did not reach stays at kUnplaced.
void allocate_in_time_order(const Problem& problem, Bytes floor, std::span<const std::uint32_t> rank,
                            std::vector<Bytes>& offsets, Deadline deadline) {
  const auto& items = problem.items;
  // (time, 0 = free / 1 = allocate, rank, item)
  std::vector<std::tuple<Time, int, std::uint32_t, std::size_t>> events;
  events.reserve(2 * items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (offsets[i] != kUnplaced) continue;
    events.emplace_back(first_start(items[i]), 1, rank[i], i);
    events.emplace_back(last_end(items[i]), 0, rank[i], i);
  }
  std::ranges::sort(events);
  FreeBlocks pool(floor);
  std::size_t unreached = events.size() / 2;
  for (std::uint64_t step = 1; const auto& [time, is_allocation, order, i] : events) {
    if (!is_allocation) {
      pool.release(offsets[i], items[i].size);
      continue;
    }
    if (deadline.passed_at(step++, unreached--)) return;
    offsets[i] = pool.allocate(items[i].size, items[i].alignment);
  }
}

}  // namespace

void place_online_bestfit(const Problem& problem, Bytes floor, std::vector<Bytes>& offsets) {
  std::vector<std::uint32_t> input_order(problem.items.size());
  std::iota(input_order.begin(), input_order.end(), 0);
  allocate_in_time_order(problem, floor, input_order, offsets, Deadline::never());
}

std::vector<Bytes> place_in_free_blocks(const Problem& problem, std::span<const std::size_t> order, Deadline deadline) {
  std::vector<Bytes> offsets(problem.items.size(), kUnplaced);
  allocate_in_time_order(problem, 0, ranks_of(order), offsets, deadline);
  return offsets;
}

Solution solve_online_bestfit(const Problem& problem) {
  Solution solution;
  solution.offsets.assign(problem.items.size(), kUnplaced);
  place_online_bestfit(problem, 0, solution.offsets);
  solution.height = height_of(problem, solution.offsets);
  return solution;
}

}  // namespace tidepool::packing
