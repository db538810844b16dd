// TIDEPOOL_* settings and the rank variables.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "runtime/settings.h"

namespace tidepool::runtime {
namespace {

std::map<std::string, std::string> g_env;

const char* lookup(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

TEST(Settings, DefaultsWhenNothingIsSet) {
  g_env = {};
  const Settings s = read_settings(&lookup);
  EXPECT_FALSE(s.disabled);
  EXPECT_EQ(s.output_dir, ".");
  EXPECT_FALSE(s.overwrite);
  EXPECT_TRUE(s.stacks);
  EXPECT_TRUE(s.device_timing);
  EXPECT_TRUE(s.real_libcuda.empty());
  EXPECT_TRUE(s.rank.empty());
}

TEST(Settings, ReadsEveryVariable) {
  g_env = {{"TIDEPOOL_DISABLE", "1"},   {"TIDEPOOL_OUTPUT_DIR", "/tmp/x"}, {"TIDEPOOL_FORCE", "yes"},
           {"TIDEPOOL_STACKS", "0"},    {"TIDEPOOL_DEVICE_TIMING", "off"}, {"TIDEPOOL_REAL_LIBCUDA", "/d/libcuda.so.1"},
           {"PMI_RANK", "5"},           {"SLURM_PROCID", "9"}};
  const Settings s = read_settings(&lookup);
  EXPECT_TRUE(s.disabled);
  EXPECT_EQ(s.output_dir, "/tmp/x");
  EXPECT_TRUE(s.overwrite);
  EXPECT_FALSE(s.stacks);
  EXPECT_FALSE(s.device_timing);
  EXPECT_EQ(s.real_libcuda, "/d/libcuda.so.1");
  EXPECT_EQ(s.rank, "5");  // RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID: first set wins
}

}  // namespace
}  // namespace tidepool::runtime
