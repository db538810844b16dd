// The example runner of the target tests.
#include "example_runs.h"

#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "tests/support/files.h"

namespace tidepool::targets {
namespace {

namespace fs = std::filesystem;
using test_support::read_file;

// The command line of `run`: the example alone, or under tidepool run.
std::vector<std::string> argv_of(const ExampleRun& run, const fs::path& traces) {
  std::vector<std::string> argv;
  if (!run.optimize.empty()) {
    argv = {tidepool_binary(), "run", "--sim", "-f", "-o", traces.string(), "--optimize=" + run.optimize,
            "--plan-cache", run.plan_cache.string()};
    argv.insert(argv.end(), run.tidepool_flags.begin(), run.tidepool_flags.end());
    argv.push_back("--");
  }
  argv.push_back(std::string(TIDEPOOL_BINARY_DIR) + "/examples/" + run.example);
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  return argv;
}

// What the run sets on top of this process's environment.
std::vector<std::string> env_of(const ExampleRun& run, const fs::path& dir) {
  std::vector<std::string> env = {"SIMCUDA_STATS=" + (dir / "stats.%p.json").string()};
  if (run.memory_limit_bytes > 0) env.push_back("SIMCUDA_MEMORY=" + std::to_string(run.memory_limit_bytes));
  if (run.optimize.empty()) env.push_back("LD_LIBRARY_PATH=" + std::string(TIDEPOOL_BINARY_DIR) + "/lib/tidepool/simcuda");
  return env;
}

}  // namespace

std::string RunOutcome::describe() const {
  const size_t tail = stderr_text.size() > 600 ? stderr_text.size() - 600 : 0;
  return "exit " + std::to_string(exit_code) + ", stderr ends: " + stderr_text.substr(tail);
}

RunOutcome run_example(const ExampleRun& run, const fs::path& dir) {
  if (!run.optimize.empty() && run.plan_cache.empty()) throw std::invalid_argument("an optimized run needs a plan cache");
  RunOutcome outcome;
  outcome.trace_dir = dir / "traces";
  fs::create_directories(outcome.trace_dir);
  test_support::ProcessOutput output = test_support::run_process(
      argv_of(run, outcome.trace_dir), test_support::child_environment({}, env_of(run, dir)), dir);
  outcome.exit_code = output.exit_code;
  outcome.stdout_text = std::move(output.out);
  outcome.stderr_text = std::move(output.err);
  std::istringstream lines(outcome.stdout_text);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("checksum: ")) outcome.checksum = line.substr(10);
  }
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.path().filename().string().starts_with("stats.")) continue;
    const nlohmann::json stats = read_json(entry.path());
    outcome.peak_device_bytes = stats.at("peak_device_bytes").get<uint64_t>();
    outcome.simulated_time_ns = stats.at("simulated_time_ns").get<uint64_t>();
  }
  return outcome;
}

std::pair<int, std::string> run_shell(const std::string& command) {
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, ""};
  std::string output;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

std::string tidepool_binary() { return std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool"; }

nlohmann::json read_json(const fs::path& file) { return nlohmann::json::parse(read_file(file)); }

fs::path only_trace_in(const fs::path& dir) {
  std::vector<fs::path> traces;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".tpt") traces.push_back(entry.path());
  }
  if (traces.size() != 1) {
    throw std::runtime_error(std::to_string(traces.size()) + " traces in " + dir.string() + ", expected one");
  }
  return traces.front();
}

std::string runtime_decisions(const RunOutcome& run) {
  const auto [status, output] =
      run_shell(shell_words({tidepool_binary(), "report", only_trace_in(run.trace_dir).string()}) + " 2>&1");
  const size_t begin = output.find("runtime decisions");
  const size_t end = output.find("iteration and plans", begin);
  std::string said = "\n";
  for (size_t at = run.stderr_text.find("tidepool: warning"); at != std::string::npos;
       at = run.stderr_text.find("tidepool: warning", at + 1)) {
    said += run.stderr_text.substr(at, run.stderr_text.find('\n', at) - at) + "\n";
  }
  if (status != 0 || begin == std::string::npos) return said + "report (exit " + std::to_string(status) + "): " + output;
  return said + output.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

RunOutcome train_mlp_unoptimized(const std::filesystem::path& dir, uint64_t memory_limit) {
  return run_example({.example = "train_mlp", .memory_limit_bytes = memory_limit}, dir);
}

std::pair<RunOutcome, RunOutcome> train_mlp_first_and_cached(const std::filesystem::path& dir, const std::string& mode,
                                                             const std::vector<std::string>& flags) {
  const ExampleRun run{.example = "train_mlp", .optimize = mode, .tidepool_flags = flags, .plan_cache = dir / "cache"};
  RunOutcome first = run_example(run, dir / "first");
  RunOutcome second = run_example(run, dir / "second");
  return {std::move(first), std::move(second)};
}

double ratio(uint64_t a, uint64_t b) { return static_cast<double>(a) / static_cast<double>(b); }

}  // namespace tidepool::targets
