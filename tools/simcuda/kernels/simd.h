// Portable SIMD for the twins' hot loops: a vector of 16 floats (a GCC vector extension, lowered to
// AVX-512, AVX2 or SSE2 registers) and SIMCUDA_VECTOR_CLONES, which compiles a function once per
// instruction set and lets the loader pick the best one the CPU has. Lanes hold independent
// results and nothing here reassociates a sum; the twins are compiled with -ffp-contract=off, so a
// multiply and an add stay two roundings in every clone, exactly as in scalar code.
#pragma once

#include <cstdint>
#include <cstring>
#include <utility>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#if defined(__x86_64__) && !defined(__clang__)
#define SIMCUDA_VECTOR_CLONES [[gnu::target_clones("avx512f", "avx2", "default")]]
#else
#define SIMCUDA_VECTOR_CLONES
#endif

namespace simcuda::simd {

constexpr int kLanes = 16;
using Floats = float __attribute__((vector_size(kLanes * sizeof(float))));

// Unaligned loads and stores (device buffers are only 4-byte aligned in general).
[[gnu::always_inline]] inline Floats load(const float* p) {
  Floats v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store(float* p, const Floats& v) {
  std::memcpy(p, &v, sizeof v);
}

// Stores v at p past the caches, for results written once and not read soon: the old contents
// are not fetched first. Call streaming_done() before the results are handed over.
[[gnu::always_inline]] inline void store_streaming(float* p, const Floats& v) {
#if defined(__SSE__)
  if (reinterpret_cast<uintptr_t>(p) % 16 == 0) {
    __m128 quarters[kLanes / 4];
    std::memcpy(quarters, &v, sizeof v);
    for (const __m128& quarter : quarters) {
      _mm_stream_ps(p, quarter);
      p += 4;
    }
    return;
  }
#endif
  store(p, v);
}
[[gnu::always_inline]] inline void streaming_done() {
#if defined(__SSE__)
  _mm_sfence();
#endif
}

// Swaps the off-diagonal h x h blocks of every 2h x 2h block of 16 rows: rows i and i + h.
template <int H, size_t... L>
[[gnu::always_inline]] inline void swap_blocks(Floats (&rows)[kLanes], std::index_sequence<L...>) {
  for (int i = 0; i < kLanes; ++i) {
    if ((i & H) != 0) continue;
    const Floats a = rows[i], b = rows[i + H];
    rows[i] = __builtin_shufflevector(a, b, ((L & H) == 0 ? L : kLanes + L - H)...);
    rows[i + H] = __builtin_shufflevector(a, b, ((L & H) == 0 ? L + H : kLanes + L)...);
  }
}

// Transposes a 16 x 16 block held as 16 row vectors: afterwards rows[i][j] is the old rows[j][i].
[[gnu::always_inline]] inline void transpose(Floats (&rows)[kLanes]) {
  constexpr auto lanes = std::make_index_sequence<kLanes>{};
  swap_blocks<8>(rows, lanes);
  swap_blocks<4>(rows, lanes);
  swap_blocks<2>(rows, lanes);
  swap_blocks<1>(rows, lanes);
}

}  // namespace simcuda::simd
