// The driver entry points of the table-driven examples (procaddress, dlopen_driver), which reach
// the driver only through pointers they look up themselves. One list names each entry point with
// its base name (what cuGetProcAddress is asked for), its ABI symbol (what dlsym is asked for) and
// the version of its PFN_ type in cudaTypedefs.h.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

// X(base name, ABI symbol, PFN version)
#define EXAMPLE_DRIVER_TABLE(X)                                     \
  X(cuGetErrorName, cuGetErrorName, 6000)                           \
  X(cuInit, cuInit, 2000)                                           \
  X(cuDeviceGet, cuDeviceGet, 2000)                                 \
  X(cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, 7000)       \
  X(cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, 11000) \
  X(cuCtxSetCurrent, cuCtxSetCurrent, 4000)                         \
  X(cuModuleLoadData, cuModuleLoadData, 2000)                       \
  X(cuModuleUnload, cuModuleUnload, 2000)                           \
  X(cuModuleGetFunction, cuModuleGetFunction, 2000)                 \
  X(cuStreamCreate, cuStreamCreate, 2000)                           \
  X(cuStreamDestroy, cuStreamDestroy_v2, 4000)                      \
  X(cuStreamSynchronize, cuStreamSynchronize, 2000)                 \
  X(cuMemAlloc, cuMemAlloc_v2, 3020)                                \
  X(cuMemFree, cuMemFree_v2, 3020)                                  \
  X(cuMemsetD32Async, cuMemsetD32Async, 3020)                       \
  X(cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2, 3020)                  \
  X(cuLaunchKernel, cuLaunchKernel, 4000)

namespace table_driven {

// One pointer per entry point, named <base name>_fn (cuda.h #defines some base names, such as
// cuMemAlloc to cuMemAlloc_v2, so the bare names cannot be fields).
struct DriverTable {
#define EXAMPLE_DRIVER_FIELD(name, symbol, version) PFN_##name##_v##version name##_fn = nullptr;
  EXAMPLE_DRIVER_TABLE(EXAMPLE_DRIVER_FIELD)
#undef EXAMPLE_DRIVER_FIELD
};

// Fills every entry with lookup(base name, ABI symbol), which returns the entry point or nullptr.
// Returns the base name of the first entry point not found, or nullptr when all were.
template <typename Lookup>
const char* fill_table(DriverTable& table, Lookup lookup) {
#define EXAMPLE_DRIVER_LOOKUP(name, symbol, version)                                   \
  table.name##_fn = reinterpret_cast<PFN_##name##_v##version>(lookup(#name, #symbol)); \
  if (table.name##_fn == nullptr) return #name;
  EXAMPLE_DRIVER_TABLE(EXAMPLE_DRIVER_LOOKUP)
#undef EXAMPLE_DRIVER_LOOKUP
  return nullptr;
}

}  // namespace table_driven
