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
  const std::vector<std::vector<std::string>> bad = {
      {"bench", "swap", "--link", "bogus", trace},      // an unknown link
      {"bench", "swap", "--slowdowns", "-1", trace},    // a negative slowdown
      {"bench", "swap", "--planner", "nope", trace},    // an unknown planner
      {"bench", "swap", not_a_trace},                   // not a trace
      {"bench", "swap", path("missing.tpt")},           // no such file
      {"synth", "no-such-network", "-o", path("x.tpt")},  // an unknown network
  };
  for (const std::vector<std::string>& args : bad) {
    const ProcessOutput run = tidepool(args);
    EXPECT_GT(run.exit_code, 0) << test_support::shell_words(args);
    EXPECT_TRUE(one_line(run.err)) << test_support::shell_words(args) << ": " << run.err;
    EXPECT_EQ(run.out, "") << test_support::shell_words(args);
  }
}

}  // namespace
}  // namespace tidepool::swap
