// A best-fit allocator of address ranges with coalescing, for the device heap and the VMM
// address range. Not thread-safe; its owner locks.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace simcuda {

struct Range {
  uint64_t begin = 0;
  uint64_t size = 0;
};

class BlockAllocator {
 public:
  BlockAllocator(uint64_t base, uint64_t span);

  // A free range of `size` bytes starting at a multiple of `alignment` (a power of two); the
  // smallest free block that fits, lowest address first. nullopt when none fits.
  std::optional<uint64_t> allocate(uint64_t size, uint64_t alignment);
  // Returns a range given by allocate; the free block it now belongs to (after coalescing).
  Range release(uint64_t begin, uint64_t size);
  // Calls visit(range) for every free block, lowest address first.
  template <class Visit>
  void for_each_free(Visit visit) const {
    for (const auto& [begin, size] : by_address_) visit(Range{begin, size});
  }

 private:
  void insert_free(uint64_t begin, uint64_t size);
  void erase_free(std::map<uint64_t, uint64_t>::iterator it);

  std::map<uint64_t, uint64_t> by_address_;            // begin -> size
  std::set<std::pair<uint64_t, uint64_t>> by_size_;    // (size, begin)
};

}  // namespace simcuda
