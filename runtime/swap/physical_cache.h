// Physical device memory (cuMemCreate handles) kept after an unmap for the next mapping of the same
// size, so that swapping does not create and release physical memory every time.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <vector>

#include "runtime/driver_api.h"

namespace tidepool::runtime {

class PhysicalCache {
 public:
  PhysicalCache(const DriverApi& api, const CUmemAllocationProp& prop) : api_(api), prop_(prop) {}
  ~PhysicalCache() { release_all(); }
  PhysicalCache(const PhysicalCache&) = delete;
  PhysicalCache& operator=(const PhysicalCache&) = delete;

  // Physical memory of `bytes` (a multiple of the granularity): a cached handle, else a new one.
  // A failed cuMemCreate for lack of memory releases the cache and tries once more.
  CUresult take(uint64_t bytes, CUmemGenericAllocationHandle* handle);
  // Keeps an unmapped handle for reuse.
  void keep(CUmemGenericAllocationHandle handle, uint64_t bytes);
  // Releases a handle to the driver at once.
  void release(CUmemGenericAllocationHandle handle);
  // Releases every cached handle to the driver; returns the bytes released.
  uint64_t release_all();

  uint64_t cached_bytes() const { return cached_bytes_; }
  uint64_t creates() const { return creates_; }

 private:
  const DriverApi& api_;
  CUmemAllocationProp prop_;
  std::map<uint64_t, std::vector<CUmemGenericAllocationHandle>> cached_;  // size -> handles
  uint64_t cached_bytes_ = 0;
  uint64_t creates_ = 0;
};

}  // namespace tidepool::runtime
