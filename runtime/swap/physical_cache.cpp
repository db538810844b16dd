// Physical device memory kept after an unmap for the next mapping of the same size.
#include "runtime/swap/physical_cache.h"

namespace tidepool::runtime {

CUresult PhysicalCache::take(uint64_t bytes, CUmemGenericAllocationHandle* handle) {
  if (const auto it = cached_.find(bytes); it != cached_.end() && !it->second.empty()) {
    *handle = it->second.back();
    it->second.pop_back();
    cached_bytes_ -= bytes;
    return CUDA_SUCCESS;
  }
  CUresult result = api_.mem_create(handle, bytes, &prop_, 0);
  if (result == CUDA_ERROR_OUT_OF_MEMORY && release_all() > 0) result = api_.mem_create(handle, bytes, &prop_, 0);
  if (result == CUDA_SUCCESS) ++creates_;
  return result;
}

void PhysicalCache::keep(CUmemGenericAllocationHandle handle, uint64_t bytes) {
  cached_[bytes].push_back(handle);
  cached_bytes_ += bytes;
}

void PhysicalCache::release(CUmemGenericAllocationHandle handle) { api_.mem_release(handle); }

uint64_t PhysicalCache::release_all() {
  const uint64_t released = cached_bytes_;
  for (const auto& [size, handles] : cached_)
    for (const CUmemGenericAllocationHandle handle : handles) api_.mem_release(handle);
  cached_.clear();
  cached_bytes_ = 0;
  return released;
}

}  // namespace tidepool::runtime
