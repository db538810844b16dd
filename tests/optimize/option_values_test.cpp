// The optimizer's setting values, and the settings read from TIDEPOOL_* variables.
#include "runtime/option_values.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "runtime/settings.h"

namespace tidepool::runtime {
namespace {

TEST(OptionValues, Modes) {
  EXPECT_EQ(parse_optimize_modes("pool"), (OptimizeModes{true, false}));
  EXPECT_EQ(parse_optimize_modes("swap"), (OptimizeModes{false, true}));
  EXPECT_EQ(parse_optimize_modes("swap,pool"), (OptimizeModes{true, true}));
  for (const char* bad : {"", "pool,", ",swap", "pool,pool", "speed", "pool swap"}) {
    EXPECT_FALSE(parse_optimize_modes(bad).has_value()) << bad;
  }
}

TEST(OptionValues, ByteCountsAndPercentages) {
  EXPECT_EQ(parse_byte_count("4096"), 4096u);
  EXPECT_EQ(parse_byte_count("3K"), 3072u);
  EXPECT_EQ(parse_byte_count("2G"), 2ull << 30);
  for (const char* bad : {"", "0", "-1", "1.5G", "12Q", "99999999999T"})
    EXPECT_FALSE(parse_byte_count(bad)) << bad;
  EXPECT_EQ(parse_percent("5"), 5.0);
  EXPECT_EQ(parse_percent("0.5"), 0.5);
  for (const char* bad : {"", "-3", "nan", "inf", "5%"}) EXPECT_FALSE(parse_percent(bad)) << bad;
  EXPECT_GT(default_pinned_limit_bytes(), 0u);
  EXPECT_LE(default_pinned_limit_bytes(), 16ull << 30);
}

std::map<std::string, std::string> g_env;
const char* lookup(const char* name) {
  const auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(OptimizerSettings, ReadFromTheEnvironment) {
  g_env = {{"TIDEPOOL_OPTIMIZE", "pool,swap"},
           {"TIDEPOOL_BUDGET", "1G"},
           {"TIDEPOOL_PLAN_CACHE", "off"},
           {"TIDEPOOL_LINK", "pcie4"},
           {"HOME", "/home/u"}};
  Settings s = read_settings(&lookup);
  EXPECT_TRUE(s.optimizing());
  EXPECT_TRUE(s.optimize_pool && s.optimize_swap);
  EXPECT_EQ(s.budget_bytes, 1ull << 30);
  EXPECT_TRUE(s.plan_cache.empty());
  EXPECT_EQ(s.link, "pcie4");

  g_env = {{"TIDEPOOL_PLAN", "/p.json"}, {"XDG_CACHE_HOME", "/x"}};
  s = read_settings(&lookup);
  EXPECT_TRUE(s.optimizing());
  EXPECT_FALSE(s.optimize_pool || s.optimize_swap);
  EXPECT_EQ(s.plan_cache, "/x/tidepool");

  g_env = {{"TIDEPOOL_OPTIMIZE", "pool"}, {"TIDEPOOL_MAX_SLOWDOWN", "fast"}};
  s = read_settings(&lookup);
  EXPECT_FALSE(s.optimizing());
  EXPECT_EQ(s.optimizer_error, "TIDEPOOL_MAX_SLOWDOWN='fast': expected a percentage >= 0");

  g_env = {{"TIDEPOOL_OPTIMIZE", "pool"}, {"TIDEPOOL_DISABLE", "1"}};
  EXPECT_FALSE(read_settings(&lookup).optimizing());
  g_env = {};
  EXPECT_FALSE(read_settings(&lookup).optimizing());
}

}  // namespace
}  // namespace tidepool::runtime
