// Large copies (see bulk_copy.h).
#include "tools/simcuda/src/bulk_copy.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "simcuda/kernel.h"

namespace simcuda {
namespace {

constexpr size_t kLargeCopy = 4u << 20;    // smaller copies stay in std::memmove
constexpr int64_t kCopyGrain = 2ll << 20;  // bytes worth a thread

// dst and src are disjoint.
void copy_streaming(unsigned char* dst, const unsigned char* src, size_t bytes) {
#if defined(__SSE2__)
  const size_t head = std::min<size_t>((16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16, bytes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  _mm_sfence();
  std::memcpy(dst + i, src + i, bytes - i);
#else
  std::memcpy(dst, src, bytes);
#endif
}

}  // namespace

void move_bytes(void* dst, const void* src, size_t bytes) {
  auto* to = static_cast<unsigned char*>(dst);
  const auto* from = static_cast<const unsigned char*>(src);
  const bool disjoint = to + bytes <= from || from + bytes <= to;
  if (bytes < kLargeCopy || !disjoint) {
    std::memmove(dst, src, bytes);
    return;
  }
  parallel_for(static_cast<int64_t>(bytes), kCopyGrain, [&](int64_t begin, int64_t end) {
    copy_streaming(to + begin, from + begin, static_cast<size_t>(end - begin));
  });
}

}  // namespace simcuda
