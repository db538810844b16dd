// Best-fit range allocation with coalescing (see block_allocator.h).
#include "tools/simcuda/src/block_allocator.h"

#include <iterator>

namespace simcuda {

BlockAllocator::BlockAllocator(uint64_t base, uint64_t span) { insert_free(base, span); }

std::optional<uint64_t> BlockAllocator::allocate(uint64_t size, uint64_t alignment) {
  if (size == 0) return std::nullopt;
  for (auto it = by_size_.lower_bound({size, 0}); it != by_size_.end(); ++it) {
    const auto [block_size, block_begin] = *it;
    const uint64_t begin = (block_begin + alignment - 1) & ~(alignment - 1);
    if (begin + size > block_begin + block_size) continue;
    erase_free(by_address_.find(block_begin));
    if (begin > block_begin) insert_free(block_begin, begin - block_begin);
    if (begin + size < block_begin + block_size) insert_free(begin + size, block_begin + block_size - begin - size);
    return begin;
  }
  return std::nullopt;
}

Range BlockAllocator::release(uint64_t begin, uint64_t size) {
  uint64_t end = begin + size;
  auto next = by_address_.lower_bound(begin);
  if (next != by_address_.end() && next->first == end) {
    end += next->second;
    erase_free(next);
  }
  auto after = by_address_.lower_bound(begin);
  if (after != by_address_.begin()) {
    auto prev = std::prev(after);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      erase_free(prev);
    }
  }
  insert_free(begin, end - begin);
  return {begin, end - begin};
}

void BlockAllocator::insert_free(uint64_t begin, uint64_t size) {
  by_address_.emplace(begin, size);
  by_size_.emplace(size, begin);
}

void BlockAllocator::erase_free(std::map<uint64_t, uint64_t>::iterator it) {
  by_size_.erase({it->second, it->first});
  by_address_.erase(it);
}

}  // namespace simcuda
