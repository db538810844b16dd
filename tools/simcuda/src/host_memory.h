// Page-locked host memory: cuMemAllocHost/cuMemHostAlloc allocations and cuMemHostRegister ranges.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/simcuda/src/block_allocator.h"

namespace simcuda {

// The pinned range containing [address, address + bytes), if any.
std::optional<Range> find_pinned(uint64_t address, uint64_t bytes);

}  // namespace simcuda
