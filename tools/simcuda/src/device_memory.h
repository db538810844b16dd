// The device's memory: one reserved address range (PROT_NONE, MAP_NORESERVE: untouched pages cost
// nothing) holding the heap of cuMemAlloc and memory pools and the range of VMM reservations, and
// the capacity (SIMCUDA_MEMORY) that heap blocks and VMM physical allocations share.
#pragma once

#include <cstdint>
#include <optional>

namespace simcuda {

constexpr uint64_t kHeapAlignment = 512;          // every heap block is rounded to this
constexpr uint64_t kVmmGranularity = 2ull << 20;  // cuMemGetAllocationGranularity

// Reserves the device address range (once; before any worker thread or fault can look at it).
void reserve_address_space();
// Whether an address lies in simcuda's device ranges (async-signal-safe).
bool in_device_range(uint64_t address);

// Capacity accounting: false (and nothing charged) when it would exceed SIMCUDA_MEMORY, or when
// SIMCUDA_OOM_RATE fails the request.
bool charge(uint64_t bytes);
void uncharge(uint64_t bytes);
uint64_t charged_bytes();

uint64_t heap_block_size(uint64_t requested);
// A committed, read-write heap block of heap_block_size(requested) bytes, charged; nullopt when out of memory.
std::optional<uint64_t> heap_allocate(uint64_t requested);
// Returns a block; pages no live block covers fault when touched, and go back to the host
// once many are free.
void heap_release(uint64_t address, uint64_t requested);

// VMM address reservations (no access until mapped): nullopt when the range is exhausted.
std::optional<uint64_t> vmm_reserve(uint64_t size, uint64_t alignment);
void vmm_unreserve(uint64_t address, uint64_t size);

}  // namespace simcuda
