// Subprocess runner for the example tests (see run_example.h).
#include "tests/examples/run_example.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/subprocess.h"

namespace examples_test {
namespace {

namespace fs = std::filesystem;
using tidepool::test_support::read_file;

// The test's environment, with simcuda first on the library path and SIMCUDA_STATS left for the
// run to set; `extra` entries replace variables of the same name.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::string library_path = "LD_LIBRARY_PATH=" TIDEPOOL_SIMCUDA_DIR;
  if (const char* inherited = std::getenv("LD_LIBRARY_PATH")) library_path += std::string(":") + inherited;
  std::vector<std::string> added = {library_path};
  added.insert(added.end(), extra.begin(), extra.end());
  return tidepool::test_support::child_environment({"SIMCUDA_STATS="}, added);
}

}  // namespace

std::string example_path(std::string_view name) {
  return (fs::path(TIDEPOOL_EXAMPLES_DIR) / name).string();
}

std::string ExampleRun::out_value(std::string_view prefix) const {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  }
  return "";
}

nlohmann::json ExampleRun::bookkeeping() const {
  constexpr std::string_view kPrefix = "bookkeeping: ";
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(kPrefix)) return nlohmann::json::parse(line.substr(kPrefix.size()));
  }
  return nullptr;
}

ExampleRun run_example(std::string_view name, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env) {
  return run_program(example_path(name), args, extra_env);
}

ExampleRun run_program(const std::string& path, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env) {
  const tidepool::test_support::TempDir dir("tidepool-examples");
  const fs::path stats_path = dir.path() / "stats.json";
  std::vector<std::string> argv{path};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> env = child_environment(extra_env);
  env.push_back("SIMCUDA_STATS=" + stats_path.string());
  const auto output = tidepool::test_support::run_process(argv, env, dir.path());

  ExampleRun run;
  run.exit_code = output.exit_code;
  run.out = output.out;
  run.err = output.err;
  if (fs::exists(stats_path)) run.stats = nlohmann::json::parse(read_file(stats_path));
  return run;
}

}  // namespace examples_test
