// Test helper: runs an example program on simcuda, without tidepool or under `tidepool run --sim
// --optimize=...`, and collects its exit status, checksum and simcuda's statistics; runs tidepool
// itself (bench e2e, plan) and reads JSON files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/files.h"
#include "tests/support/subprocess.h"

namespace tidepool::targets {

struct ExampleRun {
  std::string example;             // its name in the build's examples folder
  std::vector<std::string> args;
  std::string optimize;            // empty: without tidepool; else --optimize's value
  std::vector<std::string> tidepool_flags;  // more flags of tidepool run (--max-slowdown 5, ...)
  std::filesystem::path plan_cache;  // --plan-cache (optimized runs; required)
  uint64_t memory_limit_bytes = 0;  // SIMCUDA_MEMORY; 0: simcuda's default
};

struct RunOutcome {
  int exit_code = -1;
  std::string stdout_text;
  std::string stderr_text;
  std::string checksum;  // from "checksum: <hex>", empty when none
  std::optional<uint64_t> peak_device_bytes;  // simcuda's statistics
  std::optional<uint64_t> simulated_time_ns;
  std::filesystem::path trace_dir;  // where tidepool run wrote its traces
  bool out_of_memory() const { return stderr_text.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos; }
  // For failure messages: the exit status and the end of stderr.
  std::string describe() const;
};

using test_support::shell_words;

// A fresh empty directory for one test, removed when the object goes.
class ScratchDir : public test_support::TempDir {
 public:
  explicit ScratchDir(const std::string& name) : TempDir("tidepool-targets-" + name) {}
};

// Runs `run` with its output, statistics and traces in `dir` (created when missing).
RunOutcome run_example(const ExampleRun& run, const std::filesystem::path& dir);

// Runs a shell command; returns its exit status and standard output.
std::pair<int, std::string> run_shell(const std::string& command);

std::string tidepool_binary();
nlohmann::json read_json(const std::filesystem::path& file);

// The one trace file in dir (tidepool run's output); throws when there is not exactly one.
std::filesystem::path only_trace_in(const std::filesystem::path& dir);

// The run's warnings and the "runtime decisions" section of `tidepool report` on its trace (plans
// installed, fallbacks, swaps, misses, returns to recording), for failure messages: read only
// where a figure is missed, so that a miss in CI says why.
std::string runtime_decisions(const RunOutcome& run);

// train_mlp at its defaults without tidepool (SIMCUDA_MEMORY = memory_limit when not 0).
RunOutcome train_mlp_unoptimized(const std::filesystem::path& dir, uint64_t memory_limit = 0);
// train_mlp at its defaults under `--optimize=mode flags`: the first run (planning, caching its plan
// in dir/cache) and the second (from the cached plan).
std::pair<RunOutcome, RunOutcome> train_mlp_first_and_cached(const std::filesystem::path& dir, const std::string& mode,
                                                             const std::vector<std::string>& flags);
double ratio(uint64_t a, uint64_t b);

}  // namespace tidepool::targets
