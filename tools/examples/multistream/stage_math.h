// The per-element math of multistream's pipeline stages, shared by multistream.cu and its CPU twin
// (tools/simcuda/kernels/multistream.cpp). Stages are affine maps with different constants, which
// do not commute: the result is right only if every stage ran after the one before it.
#pragma once

#include "tools/examples/common/hd.h"

namespace multistream {

TP_HD float stage_value(float in, int stage, long long index) {
  const float scale = 1.0f + 0.125f * static_cast<float>(stage);
  const float shift = 0.5f * static_cast<float>(stage) - 0.25f * static_cast<float>(index % 5);
  return mul_rn(in, scale) + shift;  // bit-identical on GPU and CPU
}

}  // namespace multistream
