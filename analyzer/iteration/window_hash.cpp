// Polynomial hashing modulo the Mersenne prime 2^61 - 1.
#include "analyzer/iteration/window_hash.h"

#include "analyzer/iteration/hash.h"

namespace tidepool::iteration {
namespace {

__extension__ typedef unsigned __int128 uint128;

constexpr std::uint64_t modulus = (1ull << 61) - 1;
constexpr std::uint64_t base = 0x1f3d5b79a2c4e687ull % modulus;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b) {
  const uint128 p = static_cast<uint128>(a) * b;
  std::uint64_t r = static_cast<std::uint64_t>(p & modulus) + static_cast<std::uint64_t>(p >> 61);
  return r >= modulus ? r - modulus : r;
}

std::uint64_t add_mod(std::uint64_t a, std::uint64_t b) {
  const std::uint64_t r = a + b;
  return r >= modulus ? r - modulus : r;
}

// base^exponent, by squaring.
std::uint64_t power_of_base(std::size_t exponent) {
  std::uint64_t result = 1, square = base;
  for (; exponent != 0; exponent >>= 1) {
    if (exponent & 1) result = mul_mod(result, square);
    square = mul_mod(square, square);
  }
  return result;
}

}  // namespace

WindowHasher::WindowHasher(std::span<const std::uint64_t> symbols) {
  prefix_.resize(symbols.size() + 1, 0);
  for (std::size_t i = 0; i < symbols.size(); ++i)
    prefix_[i + 1] = add_mod(mul_mod(prefix_[i], base), mix64(symbols[i]) % modulus);
}

std::uint64_t WindowHasher::operator()(Range range) const {
  const std::uint64_t shifted = mul_mod(prefix_[range.begin], power_of_base(range.size()));
  const std::uint64_t h = add_mod(prefix_[range.end], modulus - shifted);
  return mix64(h ^ (range.size() * 0x9e3779b97f4a7c15ull));
}

}  // namespace tidepool::iteration
