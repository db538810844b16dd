// The kernels of async_alloc.
#include "tools/examples/async_alloc/async_math.h"
#include "tools/examples/common/hash.h"

extern "C" __global__ void aa_fill(float* out, unsigned long long seed, long long stream_id,
                                   long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = examples::uniform_pm1(seed, stream_id, i);
}

extern "C" __global__ void aa_combine(const float* a, const float* b, float* c, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = async_alloc::combine(a[i], b[i]);
}

// sums[j] = the sum of values[j * block, (j + 1) * block) (clipped to n); one thread per sum.
extern "C" __global__ void aa_block_sums(const float* values, float* sums, long long n, int block) {
  const long long j = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long begin = j * block;
  if (begin >= n) return;
  const long long end = begin + block < n ? begin + block : n;
  sums[j] = async_alloc::range_sum(values, begin, end);
}
