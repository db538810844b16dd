// The per-element math of async_alloc, shared by async_alloc.cu and its CPU twin
// (tools/simcuda/kernels/async_alloc.cpp); written with mul_rn so GPU and CPU agree bit for bit.
#pragma once

#include "tools/examples/common/hd.h"

namespace async_alloc {

constexpr int kSumBlock = 1024;  // elements per partial sum

// Iteration i works on vectors of this many elements: the sizes change from one iteration to the
// next.
inline long long iteration_elements(long long elements, int iteration) {
  return elements + (iteration % 4) * 4096LL;
}

TP_HD float combine(float a, float b) {
  return mul_rn(a, b) + a;
}

// The sum of values[begin, end), in ascending order.
TP_HD float range_sum(const float* values, long long begin, long long end) {
  float sum = 0.0f;
  for (long long i = begin; i < end; ++i) sum += values[i];
  return sum;
}

}  // namespace async_alloc
