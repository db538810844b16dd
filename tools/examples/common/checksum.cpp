// FNV-1a 64 checksum of result bytes (see checksum.h).
#include "tools/examples/common/checksum.h"

#include <cinttypes>
#include <cstdio>

namespace examples {

void Checksum::add(std::span<const std::byte> bytes) {
  constexpr uint64_t kPrime = 0x100000001b3ull;
  uint64_t state = state_;
  for (std::byte b : bytes) state = (state ^ static_cast<uint64_t>(b)) * kPrime;
  state_ = state;
}

void Checksum::print() const {
  std::printf("checksum: %016" PRIx64 "\n", state_);
}

}  // namespace examples
