// CPU twins of the table-driven examples' kernels (tools/examples/table_driven/table_driven.cu).
#include <algorithm>

#include "tools/examples/table_driven/table_math.h"
#include "tools/simcuda/kernels/fill_twin.h"
#include "tools/simcuda/kernels/twin.h"

namespace {

using simcuda::LaunchShape;
using simcuda::Work;

constexpr double kFloat = sizeof(float);

Work axpy(const LaunchShape&, const float* x, float* y, float a, long long n) {
  for (long long i = 0; i < n; ++i) y[i] = table_driven::axpy(a, x[i], y[i]);
  return {2.0 * n, 3 * kFloat * n};
}

Work square_sums(const LaunchShape&, const float* values, float* sums, long long n, int block) {
  for (long long begin = 0, j = 0; begin < n; begin += block, ++j) {
    sums[j] = table_driven::range_square_sum(values, begin, std::min(begin + block, n));
  }
  return {2.0 * n, kFloat * (n + (n + block - 1) / block)};
}

}  // namespace

SIMCUDA_TWIN(td_fill, simcuda::twins::fill_uniform_pm1);
SIMCUDA_TWIN(td_axpy, axpy);
SIMCUDA_TWIN(td_square_sums, square_sums);
