// `tidepool synth` and `tidepool bench swap` end to end: a synthetic trace written and benchmarked
// (--json: one object per planner and slowdown, each within its slowdown and between the floor and
// the unoptimized peak), and bad input refused with one line and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/tidepool_cli.h"

namespace tidepool::swap {
namespace {

using test_support::ProcessOutput;
using test_support::TempDir;

class BenchSwapCommand : public ::testing::Test {
 protected:
  ProcessOutput tidepool(const std::vector<std::string>& args) { return test_support::run_tidepool(args, dir_.path()); }
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

TEST_F(BenchSwapCommand, PrintsOneTableHeaderForAllTraces) {
  const std::string trace = small_trace();
  const ProcessOutput run = tidepool({"bench", "swap", "--slowdowns", "0", trace, trace});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream lines(run.out);
  int headers = 0, rows = 0;
  for (std::string line; std::getline(lines, line);) {
    headers += line.starts_with("trace ");
    rows += line.starts_with(trace);
  }
  EXPECT_EQ(headers, 1) << run.out;
  EXPECT_EQ(rows, 4) << run.out;  // paper and best, for each of the two
}

TEST_F(BenchSwapCommand, RefusesBadInputWithOneLine) {
  const std::string trace = small_trace();
  const std::string not_a_trace = path("not-a-trace.csv");
  std::ofstream(not_a_trace) << "id,lower,upper,size\na,0,1,1\n";
  const std::vector<test_support::Refusal> refusals = {
      {{"bench", "swap", "--link", "bogus", trace}, 2, "unknown link 'bogus'"},
      {{"bench", "swap", "--slowdowns", "-1", trace}, 2, "--slowdowns takes percentages >= 0"},
      {{"bench", "swap", "--planner", "nope", trace}, 2, "unknown swap planner 'nope'"},
      {{"bench", "swap", not_a_trace}, 1, not_a_trace + ": not a tidepool trace"},
      {{"bench", "swap", path("missing.tpt")}, 1, path("missing.tpt") + ": cannot open"},
      {{"synth", "no-such-network", "-o", path("x.tpt")}, 2, "unknown model 'no-such-network'"},
  };
  test_support::expect_refusals(refusals, dir_.path());
}

}  // namespace
}  // namespace tidepool::swap
