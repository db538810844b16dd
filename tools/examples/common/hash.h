// Counter-based pseudo-random numbers shared by kernels, CPU twins and host code: the same inputs
// give the same bits everywhere, so data can be generated on either side.
#pragma once

#include <stdint.h>

#include "tools/examples/common/hd.h"

namespace examples {

TP_HD uint32_t mix32(uint32_t x) {  // lowbias32 by Chris Wellons
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

TP_HD uint32_t hash3(uint64_t seed, uint64_t a, uint64_t b) {
  uint32_t h = mix32(static_cast<uint32_t>(seed) ^ 0x9e3779b9U);
  h = mix32(h ^ static_cast<uint32_t>(seed >> 32));
  h = mix32(h ^ static_cast<uint32_t>(a));
  h = mix32(h ^ static_cast<uint32_t>(a >> 32));
  h = mix32(h ^ static_cast<uint32_t>(b));
  return mix32(h ^ static_cast<uint32_t>(b >> 32));
}

// Uniform in [-1, 1), exactly representable (24 random bits).
TP_HD float uniform_pm1(uint64_t seed, uint64_t a, uint64_t b) {
  return static_cast<float>(hash3(seed, a, b) >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

}  // namespace examples
