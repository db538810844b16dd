// Where one side of a 2D/3D copy starts (host, device, unified or array memory), for the
// cuMemcpy2D*/3D* descriptors.
#pragma once

#include <cstdint>

#include "tools/simcuda/src/api.h"

namespace simcuda {

struct CopySide {
  CUmemorytype type;
  const void* host;
  CUdeviceptr device;
  CUarray array;
  uint64_t x_bytes, y, z;
  uint64_t pitch, height;  // for host and device memory; an array has its own layout
};

struct CopyStart {
  uint64_t address = 0;
  uint64_t pitch = 0;
  uint64_t slice = 0;  // pitch x rows per slice
};

// CUDA_ERROR_INVALID_VALUE for an unknown memory type or array handle, or a box of width bytes x
// height rows x depth slices that leaves the array.
CUresult locate(const CopySide& side, uint64_t width, uint64_t height, uint64_t depth, CopyStart& out);

}  // namespace simcuda
