// CUDA arrays and mipmapped arrays as opaque device-memory objects: a heap block laid out as
// depth x height rows of width x element bytes, no padding (mipmap levels one after another).
// They count in device memory (peak_device_bytes, capacity) but not in `allocations`/`frees`
// nor in the requested-bytes figures, whose list of functions does not include them.
#pragma once

#include <cstdint>
#include <optional>

#include "tools/simcuda/src/api.h"

namespace simcuda {

struct ArrayLayout {
  uint64_t base = 0;
  uint64_t row_bytes = 0;
  uint64_t height = 1;  // at least 1
  uint64_t depth = 1;   // at least 1
};

// levels: 0 for a plain array, else the mipmap levels of a mipmapped array.
CUresult create_array(const CUDA_ARRAY3D_DESCRIPTOR& desc, unsigned levels, void*& handle);
// kind must match: a plain array is not destroyed as a mipmapped one nor the reverse.
CUresult destroy_array(void* handle, bool mipmapped);
std::optional<ArrayLayout> find_array(CUarray handle);
// Whether [address, address + bytes) lies inside one array's memory.
bool in_array(uint64_t address, uint64_t bytes);

}  // namespace simcuda
