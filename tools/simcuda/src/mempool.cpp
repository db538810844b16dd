// Memory pools and their block reuse rules (see mempool.h).
#include "tools/simcuda/src/mempool.h"

#include "tools/simcuda/src/capture.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "tools/simcuda/src/allocations.h"
#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {

class MemoryPool {
 public:
  uint64_t release_threshold = 0;
  int reuse_flags[3] = {1, 1, 1};
  uint64_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
  std::multimap<uint64_t, uint64_t> free_any;                              // block size -> address
  std::map<unsigned long long, std::multimap<uint64_t, uint64_t>> free_on;  // stream id -> (block size -> address)
};

namespace {

struct Pools {
  std::mutex mutex;
  std::map<MemoryPool*, std::unique_ptr<MemoryPool>> live;
  MemoryPool* default_pool = nullptr;
  MemoryPool* current = nullptr;
};

Pools& pools() {
  static Pools& instance = [] () -> Pools& {
    auto* p = new Pools;
    auto pool = std::make_unique<MemoryPool>();
    p->default_pool = p->current = pool.get();
    p->live.emplace(pool.get(), std::move(pool));
    return *p;
  }();
  return instance;
}

std::optional<uint64_t> take(std::multimap<uint64_t, uint64_t>& blocks, uint64_t size) {
  const auto it = blocks.find(size);
  if (it == blocks.end()) return std::nullopt;
  const uint64_t address = it->second;
  blocks.erase(it);
  return address;
}

// Gives cached blocks back to the device, largest first, down to keep_bytes; caller holds the lock.
void trim_locked(MemoryPool& pool, uint64_t keep_bytes) {
  while (pool.reserved > keep_bytes && !pool.free_any.empty()) {
    const auto it = std::prev(pool.free_any.end());
    heap_release(it->second, it->first);
    pool.reserved -= it->first;
    pool.free_any.erase(it);
  }
}

void make_reusable_everywhere(MemoryPool& pool, const Stream* stream) {
  for (auto it = pool.free_on.begin(); it != pool.free_on.end();) {
    if (stream != nullptr && it->first != stream->id) {
      ++it;
      continue;
    }
    pool.free_any.insert(it->second.begin(), it->second.end());
    it = pool.free_on.erase(it);
  }
}

}  // namespace

CUresult pool_allocate(MemoryPool* pool, uint64_t bytes, CUstream handle, bool per_thread, CUdeviceptr& out) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, true); r != CUDA_SUCCESS) return r;
  // Memory allocation nodes are not captured: allocating or freeing on a capturing stream is refused.
  if (const CUresult r = capture_gate(stream, true); r != CUDA_SUCCESS) return r;
  if (bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  const uint64_t block = heap_block_size(bytes);
  std::optional<uint64_t> address;
  for (int attempt = 0; attempt < 2 && !address; ++attempt) {
    if (attempt == 1) {
      // Out of memory: wait for the device, then give every cached block of every pool back.
      wall_synchronize_device();
      const std::lock_guard lock(pools().mutex);
      for (auto& [p, owned] : pools().live) {
        make_reusable_everywhere(*owned, nullptr);
        trim_locked(*owned, 0);
      }
    }
    const std::lock_guard lock(pools().mutex);
    auto on_stream = pool->free_on.find(stream->id);
    if (on_stream != pool->free_on.end()) address = take(on_stream->second, block);
    if (!address) address = take(pool->free_any, block);
    if (!address && (address = heap_allocate(block))) {
      pool->reserved += block;
      pool->reserved_high = std::max(pool->reserved_high, pool->reserved);
    }
    if (address) {
      pool->used += block;
      pool->used_high = std::max(pool->used_high, pool->used);
    }
  }
  if (!address) return CUDA_ERROR_OUT_OF_MEMORY;
  add_allocation(*address, bytes, pool);
  stats_allocation(bytes);
  out = *address;
  return CUDA_SUCCESS;
}

CUresult pool_free_async(CUdeviceptr address, CUstream handle, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  const auto found = find_allocation(address);
  if (!found || found->base != address || found->pool == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const auto allocation = take_allocation(address);
  if (!allocation) return CUDA_ERROR_INVALID_VALUE;
  stats_free(allocation->requested);
  const uint64_t block = heap_block_size(allocation->requested);
  const std::lock_guard lock(pools().mutex);
  MemoryPool& pool = *allocation->pool;
  pool.used -= block;
  pool.free_on[stream->id].emplace(block, address);
  return CUDA_SUCCESS;
}

CUresult free_to_pool_now(CUdeviceptr address) {
  const auto allocation = take_allocation(address);
  if (!allocation) return CUDA_ERROR_INVALID_VALUE;
  stats_free(allocation->requested);
  const uint64_t block = heap_block_size(allocation->requested);
  const std::lock_guard lock(pools().mutex);
  MemoryPool& pool = *allocation->pool;
  pool.used -= block;
  pool.free_any.emplace(block, address);
  trim_locked(pool, pool.release_threshold);
  return CUDA_SUCCESS;
}

void pools_synchronized(const Stream* stream) {
  const std::lock_guard lock(pools().mutex);
  for (auto& [p, pool] : pools().live) {
    make_reusable_everywhere(*pool, stream);
    trim_locked(*pool, pool->release_threshold);
  }
}

MemoryPool* default_pool() { return pools().default_pool; }

MemoryPool* current_pool() {
  const std::lock_guard lock(pools().mutex);
  return pools().current;
}

void set_current_pool(MemoryPool* pool) {
  const std::lock_guard lock(pools().mutex);
  pools().current = pool;
}

MemoryPool* create_pool() {
  auto pool = std::make_unique<MemoryPool>();
  MemoryPool* raw = pool.get();
  const std::lock_guard lock(pools().mutex);
  pools().live.emplace(raw, std::move(pool));
  return raw;
}

MemoryPool* find_pool(CUmemoryPool handle) {
  const std::lock_guard lock(pools().mutex);
  const auto it = pools().live.find(reinterpret_cast<MemoryPool*>(handle));
  return it != pools().live.end() ? it->first : nullptr;
}

void destroy_pool(MemoryPool* pool) {
  const std::lock_guard lock(pools().mutex);
  make_reusable_everywhere(*pool, nullptr);
  trim_locked(*pool, 0);
  if (pools().current == pool) pools().current = pools().default_pool;
  // Allocations still live keep the pool object; it is only forgotten as a handle.
  if (pool->used == 0) pools().live.erase(pool);
}

void trim_pool(MemoryPool* pool, uint64_t keep_bytes) {
  const std::lock_guard lock(pools().mutex);
  trim_locked(*pool, keep_bytes);
}

CUresult set_pool_attribute(MemoryPool* pool, CUmemPool_attribute attribute, const void* value) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const std::lock_guard lock(pools().mutex);
  switch (attribute) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      std::memcpy(&pool->reuse_flags[attribute - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES], value, sizeof(int));
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      std::memcpy(&pool->release_threshold, value, sizeof(uint64_t));
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: {
      uint64_t reset = 0;
      std::memcpy(&reset, value, sizeof reset);
      if (reset != 0) return CUDA_ERROR_INVALID_VALUE;
      if (attribute == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH) pool->reserved_high = pool->reserved;
      else pool->used_high = pool->used;
      return CUDA_SUCCESS;
    }
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult get_pool_attribute(MemoryPool* pool, CUmemPool_attribute attribute, void* value) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const std::lock_guard lock(pools().mutex);
  uint64_t number = 0;
  switch (attribute) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      std::memcpy(value, &pool->reuse_flags[attribute - CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES], sizeof(int));
      return CUDA_SUCCESS;
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: number = pool->release_threshold; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: number = pool->reserved; break;
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH: number = pool->reserved_high; break;
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT: number = pool->used; break;
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH: number = pool->used_high; break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  std::memcpy(value, &number, sizeof number);
  return CUDA_SUCCESS;
}

}  // namespace simcuda
