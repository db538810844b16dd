// Pinned host memory for swapped-out buffers: blocks recycled by size, everything held (in use or
// pooled) bounded by a limit, and counted exactly.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "runtime/driver_api.h"

namespace tidepool::runtime {

struct PinnedBlock {
  void* data = nullptr;
  uint64_t bytes = 0;  // the block's size (the request rounded up to a page)
};

class PinnedPool {
 public:
  PinnedPool(const DriverApi& api, uint64_t limit_bytes) : api_(api), limit_(limit_bytes) {}
  ~PinnedPool();  // frees the pooled blocks; blocks still handed out are the owner's to give back
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  // A block of at least `bytes`: a pooled one of that size, else a new one if the limit allows
  // (freeing pooled blocks of other sizes to make room). Nothing when the limit or driver refuses.
  std::optional<PinnedBlock> take(uint64_t bytes);
  // Returns a block to the pool for the next take of its size.
  void give(PinnedBlock block);
  // Frees every pooled block.
  void trim();

  uint64_t held_bytes() const { return held_; }  // in use and pooled
  uint64_t peak_bytes() const { return peak_; }
  uint64_t limit_bytes() const { return limit_; }

 private:
  bool free_pooled_until_room_for(uint64_t bytes);

  const DriverApi& api_;
  uint64_t limit_;
  uint64_t held_ = 0;
  uint64_t peak_ = 0;
  std::map<uint64_t, std::vector<void*>> pooled_;  // block size -> free blocks
};

}  // namespace tidepool::runtime
