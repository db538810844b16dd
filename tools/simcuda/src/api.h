// What every file defining driver entry points includes: cuda.h with every ABI name declared
// (legacy, versioned and per-thread-stream), the export marker, and the exception guard.
#pragma once

#define __CUDA_API_VERSION_INTERNAL
#include <cuda.h>

#include <new>

// Exported driver entry point: C linkage, default visibility (everything else is hidden).
#define SIMCUDA_API extern "C" __attribute__((visibility("default")))

namespace simcuda {

// Runs an entry point's body; no exception ever crosses the C boundary.
template <class Body>
CUresult guard(Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return CUDA_ERROR_UNKNOWN;
  }
}

}  // namespace simcuda
