// The link presets and --link values.
#include <gtest/gtest.h>

#include "analyzer/swap/link.h"

namespace tidepool::swap {
namespace {

TEST(Link, PresetsAndNumbers) {
  EXPECT_DOUBLE_EQ(parse_link("pcie4").bytes_per_second, 25e9);
  EXPECT_DOUBLE_EQ(parse_link("pcie5").bytes_per_second, 50e9);
  EXPECT_DOUBLE_EQ(parse_link("nvlink-c2c").bytes_per_second, 300e9);
  EXPECT_DOUBLE_EQ(parse_link("64").bytes_per_second, 64e9);
  EXPECT_DOUBLE_EQ(parse_link("12.5").bytes_per_second, 12.5e9);
  const Link l = parse_link("pcie5");
  EXPECT_DOUBLE_EQ(l.copy_seconds(50'000'000'000ull), 1 + l.latency_seconds);
}

TEST(Link, GarbageIsRejected) {
  for (const char* text : {"", "pcie6", "0", "-5", "5x", "nan", "inf"})
    EXPECT_THROW(parse_link(text), std::invalid_argument) << text;
}

}  // namespace
}  // namespace tidepool::swap
