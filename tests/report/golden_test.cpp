// The golden-file test: the stored small trace, run through `tidepool report` (text and JSON) and
// `tidepool dump`, gives exactly the stored outputs. After an intended change, regenerate with
//   TIDEPOOL_REGENERATE_GOLDEN=1 build/bin/report_cli_test --gtest_filter=ReportGolden.*
// and review the diff of tests/report/data/.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "analyzer/trace/save.h"
#include "command.h"
#include "golden_trace.h"

namespace tidepool::report {
namespace {

using testing::run_command;
using testing::tidepool_binary;

const std::filesystem::path kData = std::filesystem::path(TIDEPOOL_SOURCE_DIR) / "tests/report/data";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool regenerate() { return std::getenv("TIDEPOOL_REGENERATE_GOLDEN") != nullptr; }

// Runs tidepool in the data folder, so that the trace's path in the output is the same everywhere.
std::string tidepool_output(const std::string& arguments) {
  const auto result = run_command("cd '" + kData.string() + "' && '" + tidepool_binary() + "' " +
                                  arguments);
  EXPECT_EQ(result.exit_code, 0) << arguments;
  return result.output;
}

void expect_matches_stored(const std::string& actual, const std::string& file) {
  if (regenerate()) {
    std::ofstream(kData / file, std::ios::binary) << actual;
    return;
  }
  EXPECT_EQ(actual, read_file(kData / file)) << "differs from tests/report/data/" << file;
}

TEST(ReportGolden, StoredTraceIsTheBuilderOutput) {
  const auto fresh = std::filesystem::temp_directory_path() /
                     ("tidepool_golden_" + std::to_string(::getpid()) + ".trace");
  trace::save_trace(testing::golden_trace(), fresh);
  if (regenerate()) std::filesystem::copy_file(fresh, kData / "golden.trace",
                                               std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(read_file(fresh), read_file(kData / "golden.trace"))
      << "the trace encoding changed: old traces would no longer read the same";
  std::filesystem::remove(fresh);
}

TEST(ReportGolden, Text) {
  expect_matches_stored(tidepool_output("report golden.trace"), "golden.txt");
}

TEST(ReportGolden, Json) {
  expect_matches_stored(tidepool_output("report --format json golden.trace"), "golden.json");
}

TEST(ReportGolden, Dump) {
  expect_matches_stored(tidepool_output("dump golden.trace"), "golden.dump");
}

}  // namespace
}  // namespace tidepool::report
