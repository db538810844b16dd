// The kernel of multistream: one pipeline stage, out[i] = stage_value(in[i]).
#include "tools/examples/multistream/stage_math.h"

extern "C" __global__ void ms_stage(const float* in, float* out, int stage, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = multistream::stage_value(in[i], stage, i);
}
