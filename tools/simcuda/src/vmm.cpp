// The VMM state: reservations, physical allocations (memfd), mappings and their rules.
#include "tools/simcuda/src/vmm.h"

#include <sys/mman.h>
#include <unistd.h>

#include <map>
#include <mutex>

#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

struct Physical {
  int fd = -1;
  uint64_t size = 0;
  CUmemAllocationProp prop{};
  unsigned references = 1;  // cuMemCreate and each cuMemRetainAllocationHandle
  unsigned mappings = 0;
};

struct Mapping {
  uint64_t size = 0;
  CUmemGenericAllocationHandle handle = 0;
  unsigned long long access = CU_MEM_ACCESS_FLAGS_PROT_NONE;
};

struct State {
  std::mutex mutex;
  std::map<uint64_t, uint64_t> reservations;  // begin -> size
  std::map<CUmemGenericAllocationHandle, Physical> physical;
  std::map<uint64_t, Mapping> mappings;       // begin -> mapping
  CUmemGenericAllocationHandle next_handle = 1;
};

State& state() {
  static State& instance = *new State;
  return instance;
}

bool aligned(uint64_t value) { return value % kVmmGranularity == 0; }

// Frees a physical allocation nobody references or maps any more; caller holds the lock.
void destroy_if_unused(State& s, CUmemGenericAllocationHandle handle) {
  const auto it = s.physical.find(handle);
  if (it == s.physical.end() || it->second.references > 0 || it->second.mappings > 0) return;
  close(it->second.fd);
  const uint64_t size = it->second.size;
  s.physical.erase(it);
  uncharge(size);
  stats_free(size);
}

std::map<uint64_t, Mapping>::iterator mapping_at(State& s, uint64_t address) {
  auto it = s.mappings.upper_bound(address);
  if (it == s.mappings.begin()) return s.mappings.end();
  --it;
  return address - it->first < it->second.size ? it : s.mappings.end();
}

bool covered(State& s, uint64_t address, uint64_t bytes) {
  const uint64_t end = address + bytes;
  while (address < end) {
    const auto it = mapping_at(s, address);
    if (it == s.mappings.end()) return false;
    address = it->first + it->second.size;
  }
  return true;
}

}  // namespace

std::optional<Range> find_mapping(uint64_t address) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto it = mapping_at(s, address);
  if (it == s.mappings.end()) return std::nullopt;
  return Range{it->first, it->second.size};
}

bool mapped_range_contains(uint64_t address, uint64_t bytes) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  return covered(s, address, bytes);
}

CUresult vmm_address_reserve(uint64_t& address, uint64_t size, uint64_t alignment) {
  if (size == 0 || !aligned(size) || (alignment & (alignment - 1)) != 0) return CUDA_ERROR_INVALID_VALUE;
  const auto begin = vmm_reserve(size, alignment);
  if (!begin) return CUDA_ERROR_OUT_OF_MEMORY;
  State& s = state();
  const std::lock_guard lock(s.mutex);
  s.reservations[*begin] = size;
  address = *begin;
  return CUDA_SUCCESS;
}

CUresult vmm_address_free(uint64_t address, uint64_t size) {
  State& s = state();
  {
    const std::lock_guard lock(s.mutex);
    const auto it = s.reservations.find(address);
    if (it == s.reservations.end() || it->second != size) return CUDA_ERROR_INVALID_VALUE;
    const auto inside = s.mappings.lower_bound(address);
    if (inside != s.mappings.end() && inside->first < address + size) return CUDA_ERROR_INVALID_VALUE;  // still mapped
    s.reservations.erase(it);
  }
  vmm_unreserve(address, size);
  return CUDA_SUCCESS;
}

CUresult vmm_create(CUmemGenericAllocationHandle& handle, uint64_t size, const CUmemAllocationProp& prop) {
  if (size == 0 || !aligned(size)) return CUDA_ERROR_INVALID_VALUE;
  if (prop.type != CU_MEM_ALLOCATION_TYPE_PINNED || prop.location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
      prop.location.id != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!charge(size)) return CUDA_ERROR_OUT_OF_MEMORY;
  const int fd = memfd_create("simcuda-physical", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    if (fd >= 0) close(fd);
    uncharge(size);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  State& s = state();
  {
    const std::lock_guard lock(s.mutex);
    handle = s.next_handle++;
    s.physical[handle] = Physical{fd, size, prop, 1, 0};
  }
  stats_allocation(size);
  return CUDA_SUCCESS;
}

CUresult vmm_release(CUmemGenericAllocationHandle handle) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto it = s.physical.find(handle);
  if (it == s.physical.end() || it->second.references == 0) return CUDA_ERROR_INVALID_VALUE;
  --it->second.references;
  destroy_if_unused(s, handle);
  return CUDA_SUCCESS;
}

CUresult vmm_map(uint64_t address, uint64_t size, CUmemGenericAllocationHandle handle) {
  if (size == 0 || !aligned(address) || !aligned(size)) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto physical = s.physical.find(handle);
  if (physical == s.physical.end() || physical->second.references == 0) return CUDA_ERROR_INVALID_VALUE;
  if (size > physical->second.size) return CUDA_ERROR_INVALID_VALUE;
  auto reservation = s.reservations.upper_bound(address);
  if (reservation == s.reservations.begin()) return CUDA_ERROR_INVALID_VALUE;
  --reservation;
  if (address + size > reservation->first + reservation->second) return CUDA_ERROR_INVALID_VALUE;
  const auto next = s.mappings.lower_bound(address);
  if ((next != s.mappings.end() && next->first < address + size) || mapping_at(s, address) != s.mappings.end())
    return CUDA_ERROR_INVALID_VALUE;  // would map over a mapped range
  void* p = mmap(reinterpret_cast<void*>(address), size, PROT_NONE, MAP_SHARED | MAP_FIXED, physical->second.fd, 0);
  if (p == MAP_FAILED) return CUDA_ERROR_OUT_OF_MEMORY;
  s.mappings[address] = Mapping{size, handle, CU_MEM_ACCESS_FLAGS_PROT_NONE};
  ++physical->second.mappings;
  return CUDA_SUCCESS;
}

CUresult vmm_unmap(uint64_t address, uint64_t size) {
  if (size == 0 || !aligned(address) || !aligned(size)) return CUDA_ERROR_INVALID_VALUE;
  // Work still queued may use these pages: let it finish (on the wall clock only).
  wall_synchronize_device();
  State& s = state();
  const std::lock_guard lock(s.mutex);
  // The range must consist of whole mappings: no partial unmaps.
  for (uint64_t at = address; at < address + size;) {
    const auto it = s.mappings.find(at);
    if (it == s.mappings.end() || at + it->second.size > address + size) return CUDA_ERROR_INVALID_VALUE;
    at += it->second.size;
  }
  void* p = mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED) return CUDA_ERROR_UNKNOWN;
  for (auto it = s.mappings.find(address); it != s.mappings.end() && it->first < address + size;) {
    const CUmemGenericAllocationHandle handle = it->second.handle;
    it = s.mappings.erase(it);
    --s.physical[handle].mappings;
    destroy_if_unused(s, handle);
  }
  return CUDA_SUCCESS;
}

CUresult vmm_set_access(uint64_t address, uint64_t size, CUmemAccess_flags flags) {
  if (size == 0 || !aligned(address) || !aligned(size)) return CUDA_ERROR_INVALID_VALUE;
  int protection = PROT_NONE;
  if (flags == CU_MEM_ACCESS_FLAGS_PROT_READ) protection = PROT_READ;
  else if (flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE) protection = PROT_READ | PROT_WRITE;
  else if (flags != CU_MEM_ACCESS_FLAGS_PROT_NONE) return CUDA_ERROR_INVALID_VALUE;
  State& s = state();
  const std::lock_guard lock(s.mutex);
  if (!covered(s, address, size)) return CUDA_ERROR_INVALID_VALUE;
  if (mprotect(reinterpret_cast<void*>(address), size, protection) != 0) return CUDA_ERROR_UNKNOWN;
  for (auto it = mapping_at(s, address); it != s.mappings.end() && it->first < address + size; ++it)
    it->second.access = flags;
  return CUDA_SUCCESS;
}

CUresult vmm_get_access(uint64_t address, unsigned long long& flags) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto it = mapping_at(s, address);
  if (it == s.mappings.end()) return CUDA_ERROR_INVALID_VALUE;
  flags = it->second.access;
  return CUDA_SUCCESS;
}

CUresult vmm_retain(CUmemGenericAllocationHandle& handle, uint64_t address) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto it = mapping_at(s, address);
  if (it == s.mappings.end()) return CUDA_ERROR_INVALID_VALUE;
  ++s.physical[it->second.handle].references;
  handle = it->second.handle;
  return CUDA_SUCCESS;
}

CUresult vmm_properties(CUmemAllocationProp& prop, CUmemGenericAllocationHandle handle) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  const auto it = s.physical.find(handle);
  if (it == s.physical.end()) return CUDA_ERROR_INVALID_VALUE;
  prop = it->second.prop;
  return CUDA_SUCCESS;
}

}  // namespace simcuda
