// CRC-32 against its check value and a bit-by-bit reference, at every length and alignment.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "analyzer/trace/crc32.h"

namespace tidepool::trace {
namespace {

uint32_t reference_crc32(std::span<const uint8_t> bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
  }
  return c ^ 0xFFFFFFFFu;
}

TEST(Crc32, CheckValue) {
  constexpr std::string_view check = "123456789";
  EXPECT_EQ(crc32({reinterpret_cast<const uint8_t*>(check.data()), check.size()}), 0xCBF43926u);
  EXPECT_EQ(crc32({}), 0u);
}

TEST(Crc32, MatchesTheBitwiseReference) {
  std::vector<uint8_t> bytes(300);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 131 + 7);
  for (size_t start = 0; start < 8; ++start) {
    for (size_t length = 0; start + length <= bytes.size(); length += 13) {
      const std::span<const uint8_t> part(bytes.data() + start, length);
      EXPECT_EQ(crc32(part), reference_crc32(part)) << start << " " << length;
    }
  }
}

}  // namespace
}  // namespace tidepool::trace
