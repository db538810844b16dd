// Pinned host memory: allocation, registration and lookups (see host_memory.h).
#include "tools/simcuda/src/host_memory.h"

#include <sys/mman.h>

#include <map>
#include <mutex>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/injected_failures.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

struct Pinned {
  uint64_t size = 0;
  unsigned flags = 0;
  bool allocated = false;  // by cuMemAllocHost/cuMemHostAlloc (else registered)
};

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, Pinned> ranges;
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

// The entry whose range contains address; caller holds the lock.
std::map<uint64_t, Pinned>::iterator containing(Registry& r, uint64_t address) {
  auto it = r.ranges.upper_bound(address);
  if (it == r.ranges.begin()) return r.ranges.end();
  --it;
  return address - it->first < it->second.size ? it : r.ranges.end();
}

bool overlaps(Registry& r, uint64_t begin, uint64_t size) {
  auto it = r.ranges.lower_bound(begin);
  if (it != r.ranges.end() && it->first < begin + size) return true;
  return containing(r, begin) != r.ranges.end();
}

CUresult allocate_host(void** pp, size_t bytesize, unsigned flags) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  if (pp == nullptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
  if (inject_out_of_memory()) return CUDA_ERROR_OUT_OF_MEMORY;
  void* p = mmap(nullptr, bytesize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    r.ranges[reinterpret_cast<uint64_t>(p)] = {bytesize, flags, true};
  }
  stats_host_pinned(static_cast<int64_t>(bytesize));
  *pp = p;
  return CUDA_SUCCESS;
}

}  // namespace

std::optional<Range> find_pinned(uint64_t address, uint64_t bytes) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = containing(r, address);
  if (it == r.ranges.end() || address + bytes > it->first + it->second.size) return std::nullopt;
  return Range{it->first, it->second.size};
}

}  // namespace simcuda

using namespace simcuda;

SIMCUDA_API CUresult cuMemAllocHost_v2(void** pp, size_t bytesize) {
  return guard([&] { return allocate_host(pp, bytesize, 0); });
}

SIMCUDA_API CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
  return guard([&] {
    constexpr unsigned kKnown = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED;
    return (Flags & ~kKnown) != 0 ? CUDA_ERROR_INVALID_VALUE : allocate_host(pp, bytesize, Flags);
  });
}

SIMCUDA_API CUresult cuMemFreeHost(void* p) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    uint64_t size = 0;
    {
      Registry& r = registry();
      const std::lock_guard lock(r.mutex);
      const auto it = r.ranges.find(reinterpret_cast<uint64_t>(p));
      if (it == r.ranges.end() || !it->second.allocated) return CUDA_ERROR_INVALID_VALUE;
      size = it->second.size;
      r.ranges.erase(it);
    }
    munmap(p, size);
    stats_host_pinned(-static_cast<int64_t>(size));
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemHostRegister_v2(void* p, size_t bytesize, unsigned int Flags) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (p == nullptr || bytesize == 0) return CUDA_ERROR_INVALID_VALUE;
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto begin = reinterpret_cast<uint64_t>(p);
    if (overlaps(r, begin, bytesize)) return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    r.ranges[begin] = {bytesize, Flags, false};
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemHostRegister(void* p, size_t bytesize, unsigned int Flags) {
  return cuMemHostRegister_v2(p, bytesize, Flags);
}

SIMCUDA_API CUresult cuMemHostUnregister(void* p) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto it = r.ranges.find(reinterpret_cast<uint64_t>(p));
    if (it == r.ranges.end() || it->second.allocated) return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    r.ranges.erase(it);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pdptr == nullptr || Flags != 0) return CUDA_ERROR_INVALID_VALUE;
    if (!find_pinned(reinterpret_cast<uint64_t>(p), 1)) return CUDA_ERROR_INVALID_VALUE;
    *pdptr = reinterpret_cast<CUdeviceptr>(p);  // unified addressing: the same address
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pFlags == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto it = containing(r, reinterpret_cast<uint64_t>(p));
    if (it == r.ranges.end()) return CUDA_ERROR_INVALID_VALUE;
    *pFlags = it->second.flags;
    return CUDA_SUCCESS;
  });
}
