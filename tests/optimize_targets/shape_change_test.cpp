// Target: a program that changes shape mid-run (a different batch size after some steps) stays
// correct under every mode and plans again. train_mlp needs flags for that: `--resize-step S`
// and `--resize-batch B` (from step S on, batches of B rows). Until it has them, the test skips
// and says so.
#include <gtest/gtest.h>

#include "example_runs.h"

namespace tidepool::targets {
namespace {

bool train_mlp_can_resize() {
  const auto [status, help] = run_shell(
      shell_words({"env", "LD_LIBRARY_PATH=" + std::string(TIDEPOOL_BINARY_DIR) + "/lib/tidepool/simcuda",
                   std::string(TIDEPOOL_BINARY_DIR) + "/examples/train_mlp", "--help"}) + " 2>&1");
  return status == 0 && help.find("--resize-step") != std::string::npos &&
         help.find("--resize-batch") != std::string::npos;
}

TEST(ShapeChange, NewBatchSizeMidRunStaysBitIdenticalAndReplans) {
  if (!train_mlp_can_resize()) GTEST_SKIP() << "train_mlp has no --resize-step/--resize-batch flags yet";
  const std::vector<std::string> args = {"--batch", "64", "--width", "32", "--depth", "2", "--steps", "24",
                                         "--resize-step", "13", "--resize-batch", "96"};
  ScratchDir scratch("shape");
  const RunOutcome off = run_example({.example = "train_mlp", .args = args}, scratch.path() / "off");
  ASSERT_EQ(off.exit_code, 0) << off.describe();
  ASSERT_FALSE(off.checksum.empty());
  for (const std::string mode : {"pool", "swap", "pool,swap"}) {
    const std::filesystem::path dir = scratch.path() / ("run-" + std::string(mode == "pool,swap" ? "both" : mode));
    const RunOutcome run = run_example(
        {.example = "train_mlp", .args = args, .optimize = mode, .plan_cache = dir / "cache"}, dir);
    ASSERT_EQ(run.exit_code, 0) << mode << ": " << run.describe();
    EXPECT_EQ(run.checksum, off.checksum) << mode;
    const auto [status, report] = run_shell(
        shell_words({tidepool_binary(), "report", "--no-plans", "--format", "json",
                     only_trace_in(run.trace_dir).string()}));
    ASSERT_EQ(status, 0) << report;
    const nlohmann::json runtime = nlohmann::json::parse(report)["processes"][0]["runtime"];
    EXPECT_GE(runtime["plans_installed"].get<int>(), 2) << mode << ": no new plan after the change";
  }
}

}  // namespace
}  // namespace tidepool::targets
