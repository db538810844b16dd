// Running the build's `tidepool` and checking its refusals (see tidepool_cli.h).
#include "tests/support/tidepool_cli.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tidepool::test_support {

std::string tidepool_binary() {
  return std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool";
}

std::vector<std::string> tidepool_environment() {
  return child_environment({"TIDEPOOL_", "LD_PRELOAD="}, {});
}

ProcessOutput run_tidepool(const std::vector<std::string>& args, const std::filesystem::path& scratch) {
  std::vector<std::string> argv = {tidepool_binary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv, tidepool_environment(), scratch);
}

void expect_refusals(std::span<const Refusal> cases, const std::filesystem::path& scratch) {
  for (const Refusal& refusal : cases) {
    const ProcessOutput run = run_tidepool(refusal.args, scratch);
    const std::string command = shell_words(refusal.args);
    const bool one_line = std::ranges::count(run.err, '\n') == 1 && run.err.ends_with('\n');
    EXPECT_EQ(run.exit_code, refusal.exit_code) << command;
    EXPECT_TRUE(run.err.starts_with("tidepool: ") && one_line) << command << ": " << run.err;
    EXPECT_NE(run.err.find(refusal.message), std::string::npos) << command << ": " << run.err;
    EXPECT_EQ(run.out, "") << command;
  }
}

}  // namespace tidepool::test_support
