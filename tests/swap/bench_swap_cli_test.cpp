// `tidepool synth` and `tidepool bench swap` end to end: a synthetic trace written and benchmarked
// (--json: one object per planner and slowdown, each within its slowdown and between the floor and
// the unoptimized peak), and bad input refused with one line and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/subprocess.h"

namespace tidepool::swap {
namespace {

using test_support::ProcessOutput;
using test_support::TempDir;

class BenchSwapCommand : public ::testing::Test {
 protected:
  ProcessOutput tidepool(std::vector<std::string> args) {
    args.insert(args.begin(), std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool");
    return test_support::run_process(args, test_support::child_environment({"TIDEPOOL_", "LD_PRELOAD="}, {}), dir_.path());
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  // A two-block bert-large trace (a few milliseconds to write and to plan).
  std::string small_trace() {
    const std::string trace = path("bert.tpt");
    const ProcessOutput run = tidepool({"synth", "bert-large", "--layers", "2", "-o", trace});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return trace;
  }
  TempDir dir_{"tidepool-bench-swap"};
};

bool one_line(const std::string& text) { return !text.empty() && std::ranges::count(text, '\n') == 1 && text.back() == '\n'; }

TEST_F(BenchSwapCommand, SynthWritesATraceThatBenchSwapPlans) {
  const std::string trace = small_trace();
  const ProcessOutput run = tidepool({"bench", "swap", "--json", "--slowdowns", "0,5", trace});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json rows = nlohmann::json::parse(run.out);
  ASSERT_TRUE(rows.is_array());
  ASSERT_EQ(rows.size(), 4u);  // paper and best, at 0% and 5%
  for (const nlohmann::json& row : rows) {
    EXPECT_EQ(row["trace"], trace);
    EXPECT_EQ(row["link"], "pcie5");
    EXPECT_TRUE(row["synthetic"].get<bool>());
    EXPECT_LE(row["simulated_slowdown_pct"].get<double>(), row["max_slowdown_pct"].get<double>()) << row.dump();
    EXPECT_LE(row["peak_bytes"].get<long long>(), row["unoptimized_peak_bytes"].get<long long>()) << row.dump();
    EXPECT_GE(row["peak_bytes"].get<long long>(), row["floor_bytes"].get<long long>()) << row.dump();
    EXPECT_EQ(row["bytes_moved"].get<long long>() > 0, row["swaps"].get<long long>() > 0) << row.dump();
  }
  const auto best_at_5 = std::ranges::find_if(rows, [](const nlohmann::json& row) {
    return row["planner"] == "best" && row["max_slowdown_pct"].get<double>() == 5.0;
  });
  ASSERT_NE(best_at_5, rows.end());
  EXPECT_LT((*best_at_5)["peak_bytes"].get<long long>(), (*best_at_5)["unoptimized_peak_bytes"].get<long long>());
}

TEST_F(BenchSwapCommand, RefusesBadInputWithOneLine) {
  const std::string trace = small_trace();
  const std::string not_a_trace = path("not-a-trace.csv");
  std::ofstream(not_a_trace) << "id,lower,upper,size\na,0,1,1\n";
  struct Bad {
    std::vector<std::string> args;
    int exit_code;         // 2: a usage error; 1: the input itself
    std::string message;   // what the line must say
  };
  const std::vector<Bad> bad = {
      {{"bench", "swap", "--link", "bogus", trace}, 2, "unknown link 'bogus'"},
      {{"bench", "swap", "--slowdowns", "-1", trace}, 2, "--slowdowns takes percentages >= 0"},
      {{"bench", "swap", "--planner", "nope", trace}, 2, "unknown swap planner 'nope'"},
      {{"bench", "swap", not_a_trace}, 1, not_a_trace + ": not a tidepool trace"},
      {{"bench", "swap", path("missing.tpt")}, 1, path("missing.tpt") + ": cannot open"},
      {{"synth", "no-such-network", "-o", path("x.tpt")}, 2, "unknown model 'no-such-network'"},
  };
  for (const Bad& b : bad) {
    const ProcessOutput run = tidepool(b.args);
    const std::string command = test_support::shell_words(b.args);
    EXPECT_EQ(run.exit_code, b.exit_code) << command;
    EXPECT_TRUE(run.err.starts_with("tidepool: ") && one_line(run.err)) << command << ": " << run.err;
    EXPECT_NE(run.err.find(b.message), std::string::npos) << command << ": " << run.err;
    EXPECT_EQ(run.out, "") << command;
  }
}

}  // namespace
}  // namespace tidepool::swap
