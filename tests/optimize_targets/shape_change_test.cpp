// Target: a program that changes shape mid-run (a different batch size after some steps) stays
// correct under every mode and plans again. train_mlp's `--resize-step S` and
// `--resize-batch B` do that (from step S on, batches of B rows). After the change the optimizer
// records a few iterations and plans in the background while the program goes on, so the run
// keeps going long enough after the change for the new plan to be installed.
#include <gtest/gtest.h>

#include "example_runs.h"

namespace tidepool::targets {
namespace {

TEST(ShapeChange, NewBatchSizeMidRunStaysBitIdenticalAndReplans) {
  // Long enough on both sides of the change for background planning to finish on a loaded
  // machine or under the sanitizers (-O0), where planning takes far longer than a step.
  const std::vector<std::string> args = {"--batch", "64", "--width", "32", "--depth", "2", "--steps", "400",
                                         "--resize-step", "150", "--resize-batch", "96"};
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
    EXPECT_GE(runtime["plans_installed"].get<int>(), 2)
        << mode << ": no new plan after the change" << runtime_decisions(run);
  }
}

}  // namespace
}  // namespace tidepool::targets
