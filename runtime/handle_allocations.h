// Allocations known by a handle rather than an address: physical VMM allocations
// (CUmemGenericAllocationHandle), CUDA arrays, and virtual address reservations (by base).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "analyzer/trace/format.h"

namespace tidepool::runtime {

struct HandleEntry {
  uint64_t alloc_id = 0;
  trace::AllocKind kind = trace::AllocKind::vmm_physical;
  uint64_t size = 0;
  uint64_t context = 0;
  int32_t device = 0;
};

class HandleAllocations {
 public:
  void add(uint64_t handle, const HandleEntry& entry);
  std::optional<HandleEntry> find(uint64_t handle) const;
  std::optional<HandleEntry> remove(uint64_t handle);
  // Forgets every entry of a context (its destruction freed them).
  void remove_context(uint64_t context);

 private:
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, HandleEntry> entries_;
};

}  // namespace tidepool::runtime
