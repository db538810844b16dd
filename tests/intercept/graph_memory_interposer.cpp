// Stands in for a driver with graph memory nodes (simcuda refuses stream-ordered allocation during
// capture): preloaded after libtidepool.so, it answers cuMemAllocAsync on a capturing stream with
// a graph address of its own, and cuMemFreeAsync of such an address on a capturing stream with
// success, as the real driver does when it adds allocation and free nodes to the graph. Every
// other call goes on to the driver.
#include <cuda.h>
#include <dlfcn.h>

#include <atomic>

namespace {

constexpr CUdeviceptr kGraphBase = 0x6000'0000'0000;
std::atomic<CUdeviceptr> g_next{kGraphBase};

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

bool capturing(CUstream stream) {
  using Fn = CUresult (*)(CUstream, CUstreamCaptureStatus*);
  static const auto is_capturing = next<Fn>("cuStreamIsCapturing");
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return is_capturing != nullptr && is_capturing(stream, &status) == CUDA_SUCCESS &&
         status == CU_STREAM_CAPTURE_STATUS_ACTIVE;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytes,
                                                                          CUstream stream) {
  if (dptr != nullptr && bytes > 0 && capturing(stream)) {
    *dptr = g_next.fetch_add((bytes + 0xffff) & ~CUdeviceptr{0xffff});
    return CUDA_SUCCESS;
  }
  using Fn = CUresult (*)(CUdeviceptr*, size_t, CUstream);
  static const auto real = next<Fn>("cuMemAllocAsync");
  return real != nullptr ? real(dptr, bytes, stream) : CUDA_ERROR_NOT_INITIALIZED;
}

extern "C" __attribute__((visibility("default"))) CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream stream) {
  if (dptr >= kGraphBase && dptr < g_next.load() && capturing(stream)) return CUDA_SUCCESS;
  using Fn = CUresult (*)(CUdeviceptr, CUstream);
  static const auto real = next<Fn>("cuMemFreeAsync");
  return real != nullptr ? real(dptr, stream) : CUDA_ERROR_NOT_INITIALIZED;
}
