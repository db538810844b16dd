// Classifying address ranges (see pointers.h).
#include "tools/simcuda/src/pointers.h"

#include "tools/simcuda/src/allocations.h"
#include "tools/simcuda/src/arrays.h"
#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/host_memory.h"
#include "tools/simcuda/src/managed.h"
#include "tools/simcuda/src/vmm.h"

namespace simcuda {

Where classify(uint64_t address, uint64_t bytes) {
  if (in_device_range(address)) {
    if (const auto a = find_allocation(address)) return address + bytes <= a->base + a->requested ? Where::device : Where::invalid;
    return mapped_range_contains(address, bytes) || in_array(address, bytes) ? Where::device : Where::invalid;
  }
  if (address == 0) return Where::invalid;
  if (const auto m = find_managed(address)) return bytes <= m->begin + m->size - address ? Where::device : Where::invalid;
  return find_pinned(address, bytes) ? Where::pinned_host : Where::pageable_host;
}

}  // namespace simcuda
