// Another preloaded library that hooks cuMemAlloc_v2 the usual way (its own definition, the next
// one found with dlsym(RTLD_NEXT)), and adds 256 bytes to every request. Preloaded before
// libtidepool.so, tidepool sees the enlarged request; after it, the original one: the trace shows
// the order in which the interposers ran.
#include <cuda.h>
#include <dlfcn.h>

extern "C" __attribute__((visibility("default"))) CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytes) {
  using Fn = CUresult (*)(CUdeviceptr*, size_t);
  static const auto next = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "cuMemAlloc_v2"));
  return next != nullptr ? next(dptr, bytes + 256) : CUDA_ERROR_NOT_INITIALIZED;
}
