// Small, stable 64-bit hashes (FNV-1a and a splitmix finaliser): symbols and fingerprints must
// not depend on the standard library's std::hash.
#pragma once

#include <cstdint>
#include <string_view>

namespace tidepool::iteration {

inline constexpr std::uint64_t fnv_offset = 14695981039346656037ull;
inline constexpr std::uint64_t fnv_prime = 1099511628211ull;

inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h = fnv_offset) {
  for (unsigned char c : bytes) h = (h ^ c) * fnv_prime;
  return h;
}

inline std::uint64_t fnv1a_u64(std::uint64_t value, std::uint64_t h) {
  for (int i = 0; i < 8; ++i) h = (h ^ ((value >> (8 * i)) & 0xff)) * fnv_prime;
  return h;
}

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace tidepool::iteration
