// Locating the sides of 2D/3D copies (see copy_location.h).
#include "tools/simcuda/src/copy_location.h"

#include "tools/simcuda/src/arrays.h"

namespace simcuda {

CUresult locate(const CopySide& side, uint64_t width, uint64_t height, uint64_t depth, CopyStart& out) {
  uint64_t base = 0;
  switch (side.type) {
    case CU_MEMORYTYPE_HOST: base = reinterpret_cast<uint64_t>(side.host); break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED: base = side.device; break;
    case CU_MEMORYTYPE_ARRAY: {
      const auto array = find_array(side.array);
      if (!array) return CUDA_ERROR_INVALID_VALUE;
      if (side.x_bytes + width > array->row_bytes || side.y + height > array->height || side.z + depth > array->depth)
        return CUDA_ERROR_INVALID_VALUE;
      out.pitch = array->row_bytes;
      out.slice = array->row_bytes * array->height;
      out.address = array->base + side.z * out.slice + side.y * out.pitch + side.x_bytes;
      return CUDA_SUCCESS;
    }
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  out.pitch = side.pitch;
  out.slice = side.pitch * side.height;
  out.address = base + side.z * out.slice + side.y * side.pitch + side.x_bytes;
  return CUDA_SUCCESS;
}

}  // namespace simcuda
