// The per-element math of the table-driven examples, shared by table_driven.cu and its CPU twin
// (tools/simcuda/kernels/table_driven.cpp); written with mul_rn so GPU and CPU agree bit for bit.
#pragma once

#include "tools/examples/common/hd.h"

namespace table_driven {

constexpr int kSumBlock = 512;  // elements per sum of squares

// Iteration i sets y to initial_y(i) and adds axpy_scale(i) * x to it.
inline float initial_y(int iteration) {
  return 1.0f + static_cast<float>(iteration);
}
inline float axpy_scale(int iteration) {
  return 0.5f + 0.25f * static_cast<float>(iteration % 3);
}

TP_HD float axpy(float a, float x, float y) {
  return mul_rn(a, x) + y;
}

// The sum of squares of values[begin, end), in ascending order.
TP_HD float range_square_sum(const float* values, long long begin, long long end) {
  float sum = 0.0f;
  for (long long i = begin; i < end; ++i) sum += mul_rn(values[i], values[i]);
  return sum;
}

}  // namespace table_driven
