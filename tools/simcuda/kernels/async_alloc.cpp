// CPU twins of async_alloc's kernels (tools/examples/async_alloc/async_alloc.cu).
#include <algorithm>

#include "tools/examples/async_alloc/async_math.h"
#include "tools/simcuda/kernels/fill_twin.h"
#include "tools/simcuda/kernels/twin.h"

namespace {

using simcuda::LaunchShape;
using simcuda::Work;

constexpr double kFloat = sizeof(float);

Work combine(const LaunchShape&, const float* a, const float* b, float* c, long long n) {
  for (long long i = 0; i < n; ++i) c[i] = async_alloc::combine(a[i], b[i]);
  return {2.0 * n, 3 * kFloat * n};
}

Work block_sums(const LaunchShape&, const float* values, float* sums, long long n, int block) {
  for (long long begin = 0, j = 0; begin < n; begin += block, ++j) {
    sums[j] = async_alloc::range_sum(values, begin, std::min(begin + block, n));
  }
  return {static_cast<double>(n), kFloat * (n + (n + block - 1) / block)};
}

}  // namespace

SIMCUDA_TWIN(aa_fill, simcuda::twins::fill_uniform_pm1);
SIMCUDA_TWIN(aa_combine, combine);
SIMCUDA_TWIN(aa_block_sums, block_sums);
