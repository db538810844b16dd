// Managed memory (cuMemAllocManaged): ordinary host memory that kernels and copies reach as
// device memory under unified addressing. It is not device memory: it never counts against
// SIMCUDA_MEMORY nor in the device statistics, only in the managed ones.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/block_allocator.h"

namespace simcuda {

CUresult allocate_managed(uint64_t bytes, uint64_t& out);
// Releases the managed allocation starting exactly at base; false when there is none.
bool free_managed(uint64_t base);
// The managed allocation containing address (whatever the length asked about).
std::optional<Range> find_managed(uint64_t address);

}  // namespace simcuda
