// --cupti on simcuda, which CUPTI cannot work with: one warning, and device times from events as
// without --cupti.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "analyzer/trace/format.h"
#include "traced_run.h"

namespace tidepool::testing {
namespace {

TEST(Cupti, FallsBackToEventTimingWithOneWarningOnSimcuda) {
  RunSpec spec{{TIDEPOOL_PROBE, "launch"}};
  spec.env = {{"TIDEPOOL_CUPTI", "1"}};
  spec.stderr_path = (std::filesystem::temp_directory_path() / ("tidepool-cupti-" + std::to_string(getpid()))).string();
  const TracedRun run = run_traced(spec);
  std::ifstream in(spec.stderr_path);
  std::stringstream err;
  err << in.rdbuf();
  std::filesystem::remove(spec.stderr_path);
  ASSERT_EQ(run.exit_status, 0) << err.str();
  const std::string text = err.str();
  size_t warnings = 0;
  for (size_t at = text.find("tidepool: --cupti: "); at != std::string::npos; at = text.find("tidepool: --cupti: ", at + 1)) {
    ++warnings;
  }
  EXPECT_EQ(warnings, 1u) << text;
  EXPECT_NE(text.find("device times come from events instead"), std::string::npos) << text;
  const trace::Trace t = only_trace(run);
  EXPECT_EQ(records_of<trace::DeviceTiming>(t).size(), records_of<trace::Launch>(t).size());
  EXPECT_EQ(records_of<trace::Launch>(t).size(), 3u);
}

}  // namespace
}  // namespace tidepool::testing
