// The CPU twin shared by the examples' fill kernels (aa_fill, td_fill): uniform values in [-1, 1)
// keyed by (seed, stream id, index), the same hash their GPU kernels use.
#pragma once

#include "tools/examples/common/hash.h"
#include "simcuda/kernel.h"

namespace simcuda::twins {

inline Work fill_uniform_pm1(const LaunchShape&, float* out, unsigned long long seed, long long stream_id,
                             long long n) {
  for (long long i = 0; i < n; ++i) out[i] = examples::uniform_pm1(seed, stream_id, i);
  return {10.0 * n, static_cast<double>(sizeof(float)) * n};
}

}  // namespace simcuda::twins
