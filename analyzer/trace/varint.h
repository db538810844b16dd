// LEB128 varints and zigzag, the integer encoding of every trace field (internal to the codec).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tidepool::trace::varint {

constexpr size_t size(uint64_t v) { return v == 0 ? 1 : (static_cast<size_t>(std::bit_width(v)) + 6) / 7; }

// Writes v at `at` (which has room for size(v) bytes); returns the byte after it.
inline uint8_t* put(uint8_t* at, uint64_t v) {
  while (v >= 0x80) {
    *at++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *at++ = static_cast<uint8_t>(v);
  return at;
}

inline void put(std::vector<uint8_t>& out, uint64_t v) {
  const size_t at = out.size();
  out.resize(at + size(v));
  put(out.data() + at, v);
}

constexpr uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
constexpr int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// Reads one varint at pos, advancing it. False when the bytes end first or the value has more
// than 64 bits.
inline bool get(std::span<const uint8_t> in, size_t& pos, uint64_t& v) {
  v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (pos >= in.size()) return false;
    const uint8_t byte = in[pos++];
    if (shift == 63 && byte > 1) return false;
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace tidepool::trace::varint
