// The registry of managed allocations (see managed.h).
#include "tools/simcuda/src/managed.h"

#include <sys/mman.h>

#include <map>
#include <mutex>

#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, uint64_t> sizes;  // base -> bytes
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

}  // namespace

CUresult allocate_managed(uint64_t bytes, uint64_t& out) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
  out = reinterpret_cast<uint64_t>(p);
  {
    const std::lock_guard lock(registry().mutex);
    registry().sizes[out] = bytes;
  }
  stats_managed(static_cast<int64_t>(bytes));
  return CUDA_SUCCESS;
}

bool free_managed(uint64_t base) {
  uint64_t bytes = 0;
  {
    const std::lock_guard lock(registry().mutex);
    const auto it = registry().sizes.find(base);
    if (it == registry().sizes.end()) return false;
    bytes = it->second;
    registry().sizes.erase(it);
  }
  munmap(reinterpret_cast<void*>(base), bytes);
  stats_managed(-static_cast<int64_t>(bytes));
  return true;
}

std::optional<Range> find_managed(uint64_t address) {
  const std::lock_guard lock(registry().mutex);
  auto it = registry().sizes.upper_bound(address);
  if (it == registry().sizes.begin()) return std::nullopt;
  --it;
  if (address - it->first >= it->second) return std::nullopt;
  return Range{it->first, it->second};
}

}  // namespace simcuda
