// Pinned host memory for swapped-out buffers, recycled by size and bounded by a limit.
#include "runtime/swap/pinned_pool.h"

#include <algorithm>

namespace tidepool::runtime {
namespace {

constexpr uint64_t kPage = 4096;

uint64_t block_size(uint64_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

}  // namespace

PinnedPool::~PinnedPool() { trim(); }

std::optional<PinnedBlock> PinnedPool::take(uint64_t bytes) {
  const uint64_t size = block_size(bytes);
  if (const auto it = pooled_.find(size); it != pooled_.end() && !it->second.empty()) {
    void* data = it->second.back();
    it->second.pop_back();
    return PinnedBlock{data, size};
  }
  if (size > limit_ || !free_pooled_until_room_for(size)) return std::nullopt;
  void* data = nullptr;
  if (api_.mem_alloc_host(&data, size) != CUDA_SUCCESS) {
    trim();  // the host is short of pinned memory: what we pool is the first to give back
    if (api_.mem_alloc_host(&data, size) != CUDA_SUCCESS) return std::nullopt;
  }
  held_ += size;
  peak_ = std::max(peak_, held_);
  return PinnedBlock{data, size};
}

void PinnedPool::give(PinnedBlock block) {
  if (block.data != nullptr) pooled_[block.bytes].push_back(block.data);
}

void PinnedPool::trim() {
  for (auto& [size, blocks] : pooled_) {
    for (void* data : blocks) {
      api_.mem_free_host(data);
      held_ -= size;
    }
  }
  pooled_.clear();
}

bool PinnedPool::free_pooled_until_room_for(uint64_t bytes) {
  for (auto it = pooled_.begin(); held_ + bytes > limit_ && it != pooled_.end();) {
    while (held_ + bytes > limit_ && !it->second.empty()) {
      api_.mem_free_host(it->second.back());
      it->second.pop_back();
      held_ -= it->first;
    }
    it = it->second.empty() ? pooled_.erase(it) : std::next(it);
  }
  return held_ + bytes <= limit_;
}

}  // namespace tidepool::runtime
