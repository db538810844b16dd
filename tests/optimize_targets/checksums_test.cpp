// Target: every example gives a bit-identical checksum under --optimize=pool, =swap and =pool,swap
// as without tidepool, over several seeds and sizes (tiny and small, so that the test stays fast),
// also when run a second time with its plan cached (train_mlp). Runs `tidepool bench e2e --json`,
// which reports each run, and holds every row to the target.
#include <gtest/gtest.h>

#include <string>

#include "example_runs.h"

namespace tidepool::targets {
namespace {

constexpr int kSeeds = 2;
constexpr int kSizes = 2;
constexpr int kOptimizedModes = 3;

std::string describe(const nlohmann::json& row) {
  return row["example"].get<std::string>() + " " + row["size"].get<std::string>() + " seed " +
         std::to_string(row["seed"].get<int>()) + " mode " + row["mode"].get<std::string>() + " " +
         row["run"].get<std::string>() + " run: exit " + std::to_string(row["exit_code"].get<int>()) +
         ", error: " + row["error"].get<std::string>();
}

class EveryExample : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryExample, BitIdenticalUnderEveryMode) {
  const std::string& example = GetParam();
  const bool cached_runs = example == "train_mlp";
  const auto [status, output] = run_shell(
      shell_words({tidepool_binary(), "bench", "e2e", "--examples", example, "--modes", "off,pool,swap,pool+swap",
                   "--sizes", "tiny,small", "--seeds", std::to_string(kSeeds), "--memory-fraction", "0",
                   "--json"}) + " 2>/dev/null");
  ASSERT_EQ(status, 0) << output;
  const nlohmann::json rows = nlohmann::json::parse(output);
  const size_t runs_per_case = 1 + kOptimizedModes * (cached_runs ? 2 : 1);
  ASSERT_EQ(rows.size(), kSeeds * kSizes * runs_per_case) << output;
  for (const nlohmann::json& row : rows) {
    if (!row["ok"].get<bool>()) {
      ADD_FAILURE() << "failed: " << describe(row);
      continue;
    }
    EXPECT_TRUE(row["checksum_matches"].get<bool>()) << "checksum differs: " << describe(row);
    if (row["mode"] == "off") continue;
    EXPECT_TRUE(row["traced"].get<bool>()) << "no trace from " << describe(row);
    // train_mlp is a plain training loop: its second run must be enforcing the plan its first run
    // cached (otherwise the checksum above would check little). A first run is not held to it:
    // a program this small may end before the planning in the background does.
    if (example == "train_mlp" && row["run"] == "cached") {
      ASSERT_FALSE(row["decisions"].is_null()) << "no runtime decision in " << describe(row);
      EXPECT_GE(row["decisions"]["plans_installed"].get<int>(), 1) << describe(row);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, EveryExample,
                         ::testing::Values("train_mlp", "multistream", "async_alloc", "procaddress",
                                           "dlopen_driver"));

}  // namespace
}  // namespace tidepool::targets
