// The kernels of the table-driven examples (procaddress, dlopen_driver).
#include "tools/examples/common/hash.h"
#include "tools/examples/table_driven/table_math.h"

extern "C" __global__ void td_fill(float* out, unsigned long long seed, long long stream_id,
                                   long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = examples::uniform_pm1(seed, stream_id, i);
}

// y[i] = a * x[i] + y[i]
extern "C" __global__ void td_axpy(const float* x, float* y, float a, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = table_driven::axpy(a, x[i], y[i]);
}

// sums[j] = the sum of squares of values[j * block, (j + 1) * block) (clipped to n).
extern "C" __global__ void td_square_sums(const float* values, float* sums, long long n,
                                          int block) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long begin = j * block;
  if (begin >= n) return;
  const long long end = begin + block < n ? begin + block : n;
  sums[j] = table_driven::range_square_sum(values, begin, end);
}
