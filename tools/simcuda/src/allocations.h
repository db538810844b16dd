// The registry of live device allocations made from the heap (cuMemAlloc, cuMemAllocPitch,
// stream-ordered allocations), for frees, address ranges and pointer attributes.
#pragma once

#include <cstdint>
#include <optional>

namespace simcuda {

class MemoryPool;

struct Allocation {
  uint64_t base = 0;
  uint64_t requested = 0;       // bytes the program asked for (pitch x height when pitched)
  uint64_t id = 0;              // CU_POINTER_ATTRIBUTE_BUFFER_ID
  MemoryPool* pool = nullptr;   // the pool of a stream-ordered allocation
};

// Registers a new allocation and gives it its buffer id.
Allocation add_allocation(uint64_t base, uint64_t requested, MemoryPool* pool);
// Removes the allocation starting exactly at base; nullopt when there is none (wild or double free).
std::optional<Allocation> take_allocation(uint64_t base);
// The live allocation containing address.
std::optional<Allocation> find_allocation(uint64_t address);

}  // namespace simcuda
