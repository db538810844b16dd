// CPU twin of multistream's stage kernel (tools/examples/multistream/multistream.cu).
#include "tools/examples/multistream/stage_math.h"
#include "tools/simcuda/kernels/twin.h"

namespace {

simcuda::Work stage(const simcuda::LaunchShape&, const float* in, float* out, int stage_index,
                    long long n) {
  for (long long i = 0; i < n; ++i) out[i] = multistream::stage_value(in[i], stage_index, i);
  return {3.0 * n, 2.0 * sizeof(float) * n};
}

}  // namespace

SIMCUDA_TWIN(ms_stage, stage);
