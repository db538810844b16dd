// `tidepool bench overhead` runs its probe in every configuration and prints both tables, the
// fast path's with both clocks (a smoke test with few calls: the figures themselves are the
// benchmark's business, not a test's).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/support/files.h"
#include "tests/support/tidepool_cli.h"

namespace {

TEST(BenchOverhead, PrintsBothTablesWithEveryConfiguration) {
  tidepool::test_support::TempDir dir("tidepool-bench-overhead");
  const auto run = tidepool::test_support::run_tidepool(
      {"bench", "overhead", "--launches", "2000", "--pairs", "2000", "--steps", "2048", "--repeat", "1"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The "added" columns are differences from the run without tidepool, measured apart: on a busy
  // machine one can come out below zero (a CI run printed -63.4), which is a figure, not an error.
  const std::string number = R"(\s+-?[0-9]+\.[0-9])";
  for (const std::string label : {"without tidepool", "tidepool, stacks off", "tidepool, stacks on"}) {
    EXPECT_TRUE(std::regex_search(run.out, std::regex(label + number + number + number + number)))
        << label << "\n" << run.out;
  }
  for (const std::string label : {"tidepool recording, stacks off", "tidepool --optimize=pool, stacks off"}) {
    EXPECT_TRUE(std::regex_search(run.out, std::regex(label + number + number + number + number)))
        << label << "\n" << run.out;
  }
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(served from the plan: [0-9.]+% of the allocations)")))
      << run.out;
  EXPECT_TRUE(std::regex_search(run.out, std::regex(R"(CPU time: (met|missed); wall clock: (met|missed))")))
      << run.out;
}

}  // namespace
