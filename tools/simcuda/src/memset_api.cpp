// The cuMemsetD8/D16/D32 entry points, 1D and 2D, synchronous (stream-ordered on the default
// stream, as the real driver does for device memory) and asynchronous, with _ptds/_ptsz forms.
#include <cstring>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/transfer.h"

using namespace simcuda;

namespace {

template <class T>
CUresult fill(CUdeviceptr dst, size_t pitch, T value, size_t width, size_t height, CUstream stream, bool per_thread) {
  if (dst % sizeof(T) != 0 || (height > 1 && pitch % sizeof(T) != 0)) return CUDA_ERROR_INVALID_VALUE;
  return set(dst, pitch, width * sizeof(T), height, [value](unsigned char* row, uint64_t bytes) {
    if constexpr (sizeof(T) == 1) {
      std::memset(row, value, bytes);
    } else {
      for (uint64_t i = 0; i < bytes / sizeof(T); ++i) std::memcpy(row + i * sizeof(T), &value, sizeof(T));
    }
  }, stream, per_thread);
}

}  // namespace

#define SIMCUDA_MEMSET(bits, type)                                                                           \
  SIMCUDA_API CUresult cuMemsetD##bits##_v2(CUdeviceptr d, type v, size_t n) {                               \
    return guard([&] { return fill<type>(d, 0, v, n, 1, nullptr, false); });                                  \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD##bits##_v2_ptds(CUdeviceptr d, type v, size_t n) {                          \
    return guard([&] { return fill<type>(d, 0, v, n, 1, nullptr, true); });                                   \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD##bits##Async(CUdeviceptr d, type v, size_t n, CUstream s) {                 \
    return guard([&] { return fill<type>(d, 0, v, n, 1, s, false); });                                       \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD##bits##Async_ptsz(CUdeviceptr d, type v, size_t n, CUstream s) {            \
    return guard([&] { return fill<type>(d, 0, v, n, 1, s, true); });                                        \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD2D##bits##_v2(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h) {     \
    return guard([&] { return fill<type>(d, pitch, v, w, h, nullptr, false); });                              \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD2D##bits##_v2_ptds(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h) { \
    return guard([&] { return fill<type>(d, pitch, v, w, h, nullptr, true); });                               \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD2D##bits##Async(CUdeviceptr d, size_t pitch, type v, size_t w, size_t h,     \
                                                CUstream s) {                                                \
    return guard([&] { return fill<type>(d, pitch, v, w, h, s, false); });                                   \
  }                                                                                                          \
  SIMCUDA_API CUresult cuMemsetD2D##bits##Async_ptsz(CUdeviceptr d, size_t pitch, type v, size_t w,          \
                                                     size_t h, CUstream s) {                                 \
    return guard([&] { return fill<type>(d, pitch, v, w, h, s, true); });                                    \
  }

SIMCUDA_MEMSET(8, unsigned char)
SIMCUDA_MEMSET(16, unsigned short)
SIMCUDA_MEMSET(32, unsigned int)
