// Runs an example once for `tidepool bench e2e` through the shell, capturing its output in files.
#include "bench_e2e_run.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "analyzer/trace/reader.h"
#include "install_paths.h"
#include "shell_quote.h"

namespace tidepool::cli {
namespace {

namespace fs = std::filesystem;

// Appends " " and the word, quoted for the shell.
void add_word(std::string& command, const std::string& word) {
  command += ' ';
  command += shell_quoted(word);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string command_line(const E2eRunSpec& spec, const fs::path& scratch) {
  std::string command = "env";
  add_word(command, "SIMCUDA_STATS=" + (scratch / "stats.%p.json").string());
  if (spec.memory_limit_bytes > 0) add_word(command, "SIMCUDA_MEMORY=" + std::to_string(spec.memory_limit_bytes));
  if (spec.mode == "off") {
    const char* old = std::getenv("LD_LIBRARY_PATH");
    add_word(command, "LD_LIBRARY_PATH=" + require_simcuda_dir().string() +
                          (old != nullptr && *old != '\0' ? ":" + std::string(old) : ""));
  } else {
    std::error_code error;
    add_word(command, fs::read_symlink("/proc/self/exe", error).string());
    for (const char* word : {"run", "--sim", "-f", "-o"}) add_word(command, word);
    add_word(command, (scratch / "traces").string());
    add_word(command, "--optimize=" + spec.mode);
    add_word(command, "--plan-cache");
    add_word(command, spec.plan_cache.string());
    if (spec.mode.find("swap") != std::string::npos) {
      std::ostringstream slowdown;
      slowdown << spec.max_slowdown_pct;
      add_word(command, "--max-slowdown");
      add_word(command, slowdown.str());
    }
    add_word(command, "--");
  }
  add_word(command, spec.program.string());
  for (const std::string& arg : spec.args) add_word(command, arg);
  command += " >";
  add_word(command, (scratch / "stdout").string());
  command += " 2>";
  add_word(command, (scratch / "stderr").string());
  return command;
}

// The line that says why a run failed: the program's last line on stderr, or tidepool's when the
// program wrote none (tidepool's own lines, such as its summary of the traces, come after).
std::string error_line(const std::string& stderr_text) {
  std::istringstream lines(stderr_text);
  std::string last, last_of_program;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    last = line;
    if (!line.starts_with("tidepool: ")) last_of_program = line;
  }
  return last_of_program.empty() ? last : last_of_program;
}

std::string checksum_of(const std::string& stdout_text) {
  std::istringstream lines(stdout_text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.starts_with("checksum: ")) return line.substr(10);
  }
  return "";
}

// simcuda's statistics: exactly one process of the run initialized it.
void read_stats(const fs::path& scratch, E2eRunResult& result) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(scratch)) {
    if (entry.path().filename().string().starts_with("stats.")) files.push_back(entry.path());
  }
  if (files.size() != 1) return;
  try {
    const auto stats = nlohmann::json::parse(read_file(files.front()));
    result.peak_device_bytes = stats.at("peak_device_bytes").get<uint64_t>();
    result.simulated_time_ns = stats.at("simulated_time_ns").get<uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("bad simcuda statistics in " + files.front().string() + ": " + e.what());
  }
}

// The runtime's decisions, from the one trace an optimized run leaves.
void read_decisions(const fs::path& traces, E2eRunResult& result) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(traces)) {
    if (entry.path().extension() == ".tpt") files.push_back(entry.path());
  }
  if (files.size() != 1) return;
  try {
    result.decisions = report::runtime_decisions(trace::read_trace(files.front()));
    result.traced = true;
  } catch (const std::exception& e) {
    if (result.error.empty()) result.error = "unreadable trace: " + std::string(e.what());
  }
}

}  // namespace

E2eRunResult run_e2e(const E2eRunSpec& spec, const fs::path& scratch) {
  fs::create_directories(scratch / "traces");
  const std::string command = command_line(spec, scratch);
  const int status = std::system(command.c_str());
  if (status == -1) throw std::runtime_error("cannot run a shell for " + command);
  E2eRunResult result;
  result.exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  const std::string out = read_file(scratch / "stdout");
  const std::string err = read_file(scratch / "stderr");
  result.checksum = checksum_of(out);
  result.out_of_memory = err.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos ||
                         out.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos;
  if (!result.ok()) result.error = error_line(err);
  read_stats(scratch, result);
  if (spec.mode != "off") read_decisions(scratch / "traces", result);
  return result;
}

}  // namespace tidepool::cli
