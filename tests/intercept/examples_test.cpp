// Every example under `tidepool run --sim`: the report's peak_requested_bytes, allocations, frees
// and kernel_launches, and the same figures in the run's own summary line, equal what simcuda
// itself counted (SIMCUDA_STATS), and the program computes the same checksum as without tidepool.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/report/units.h"
#include "tests/support/files.h"
#include "tests/support/subprocess.h"

namespace tidepool::testing {
namespace {

namespace fs = std::filesystem;

struct Example {
  std::string name;
  std::vector<std::string> args;
};

void PrintTo(const Example& e, std::ostream* out) { *out << e.name; }

struct Output {
  int status = -1;
  std::string out;
};

std::string shell_quoted(const std::string& word) { return tidepool::test_support::shell_words({word}); }

Output shell(const std::string& command) {
  Output o;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return o;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, p)) > 0) o.out.append(buffer, n);
  const int status = pclose(p);
  o.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return o;
}

std::string checksum(const std::string& out) {
  const size_t at = out.find("checksum: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

class ExampleUnderTidepool : public ::testing::TestWithParam<Example> {};

TEST_P(ExampleUnderTidepool, ReportMatchesSimcudaStats) {
  const Example& e = GetParam();
  std::string dir = (fs::temp_directory_path() / "tidepool-examples-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string tidepool = std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool";
  std::string program = shell_quoted(std::string(TIDEPOOL_BINARY_DIR) + "/examples/" + e.name);
  for (const std::string& a : e.args) program += " " + shell_quoted(a);

  const Output plain =
      shell("LD_LIBRARY_PATH=" + shell_quoted(TIDEPOOL_SIMCUDA_LIBRARY_DIR) + " " + program + " 2>/dev/null");
  ASSERT_EQ(plain.status, 0);

  const std::string stats = dir + "/stats.json";
  const std::string run_lines = dir + "/run.txt";
  const Output traced = shell("SIMCUDA_STATS=" + shell_quoted(stats) + " " + shell_quoted(tidepool) + " run --sim -o " +
                              shell_quoted(dir + "/traces") + " -- " + program + " 2>" + shell_quoted(run_lines));
  ASSERT_EQ(traced.status, 0);
  EXPECT_FALSE(checksum(plain.out).empty());
  EXPECT_EQ(checksum(traced.out), checksum(plain.out));

  std::vector<std::string> traces;
  for (const auto& entry : fs::directory_iterator(dir + "/traces")) traces.push_back(entry.path().string());
  ASSERT_EQ(traces.size(), 1u);
  const Output report = shell(shell_quoted(tidepool) + " report --format json " + shell_quoted(traces[0]));
  ASSERT_EQ(report.status, 0);
  const auto json = nlohmann::json::parse(report.out);
  const auto& process = json.at("processes").at(0);
  std::ifstream stats_in(stats);
  ASSERT_TRUE(stats_in) << "simcuda wrote no statistics";
  const auto expected = nlohmann::json::parse(stats_in);
  for (const char* field : {"peak_requested_bytes", "allocations", "frees", "kernel_launches"}) {
    EXPECT_EQ(process.at(field), expected.at(field)) << field;
  }
  // The run's own line (read from the trace as a stream, not through the report) says the same.
  const std::string said = tidepool::test_support::read_file(run_lines);
  std::string summary = "peak device memory ";
  summary.append(report::human_bytes(expected.at("peak_requested_bytes").get<uint64_t>()));
  for (const auto& [field, words] : {std::pair{"allocations", " allocations"}, std::pair{"frees", " frees"},
                                     std::pair{"kernel_launches", " kernel launches"}}) {
    summary.append(", ").append(std::to_string(expected.at(field).get<uint64_t>())).append(words);
  }
  EXPECT_NE(said.find(summary), std::string::npos) << summary << "\nnot in\n" << said;
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, ExampleUnderTidepool,
    ::testing::Values(Example{"train_mlp", {"--batch", "256", "--width", "64", "--depth", "3", "--steps", "3"}},
                      Example{"multistream", {"--stages", "3", "--iterations", "4", "--elements", "4096"}},
                      Example{"async_alloc", {"--iterations", "4", "--elements", "4096"}},
                      Example{"procaddress", {"--iterations", "4", "--elements", "4096"}},
                      Example{"procaddress", {"--iterations", "4", "--elements", "4096", "--per-thread", "0"}},
                      Example{"dlopen_driver", {"--iterations", "4", "--elements", "4096"}}));

}  // namespace
}  // namespace tidepool::testing
