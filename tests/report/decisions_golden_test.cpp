// The golden files of the runtime-decisions section: the stored optimized-run trace
// (tests/report/data/decisions.trace, built by decisions_trace.cpp) through `tidepool report
// --no-plans` in text and JSON. After an intended change, regenerate with
//   TIDEPOOL_REGENERATE_GOLDEN=1 build/bin/report_cli_test --gtest_filter=DecisionsGolden.*
// and review the diff of tests/report/data/.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "analyzer/trace/save.h"
#include "command.h"
#include "decisions_trace.h"

namespace tidepool::report {
namespace {

const std::filesystem::path kData = std::filesystem::path(TIDEPOOL_SOURCE_DIR) / "tests/report/data";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool regenerate() { return std::getenv("TIDEPOOL_REGENERATE_GOLDEN") != nullptr; }

void expect_report_matches(const std::string& arguments, const std::string& file) {
  const auto result = testing::run_command("cd '" + kData.string() + "' && '" +
                                           testing::tidepool_binary() + "' " + arguments);
  ASSERT_EQ(result.exit_code, 0) << arguments;
  if (regenerate()) {
    std::ofstream(kData / file, std::ios::binary) << result.output;
    return;
  }
  EXPECT_EQ(result.output, read_file(kData / file)) << "differs from tests/report/data/" << file;
}

TEST(DecisionsGolden, StoredTraceIsTheBuilderOutput) {
  const auto fresh = std::filesystem::temp_directory_path() /
                     ("tidepool_decisions_" + std::to_string(::getpid()) + ".trace");
  trace::save_trace(testing::decisions_trace(), fresh);
  if (regenerate()) {
    std::filesystem::copy_file(fresh, kData / "decisions.trace",
                               std::filesystem::copy_options::overwrite_existing);
  }
  EXPECT_EQ(read_file(fresh), read_file(kData / "decisions.trace"));
  std::filesystem::remove(fresh);
}

TEST(DecisionsGolden, Text) { expect_report_matches("report --no-plans decisions.trace", "decisions.txt"); }

TEST(DecisionsGolden, Json) {
  expect_report_matches("report --no-plans --format json decisions.trace", "decisions.json");
}

}  // namespace
}  // namespace tidepool::report
