// One run of `tidepool bench e2e`: an example program on simcuda, without tidepool or under
// `tidepool run --sim --optimize=MODE`, with its checksum, exit status and simcuda's statistics.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/report/runtime_decisions.h"

namespace tidepool::cli {

struct E2eRunSpec {
  std::filesystem::path program;    // the example's executable
  std::vector<std::string> args;    // its flags
  std::string mode;                 // "off", or the --optimize value ("pool", "swap", "pool,swap")
  double max_slowdown_pct = 0;      // --max-slowdown of optimized runs with swap
  std::filesystem::path plan_cache;  // --plan-cache of optimized runs
  uint64_t memory_limit_bytes = 0;  // SIMCUDA_MEMORY; 0: simcuda's default
};

struct E2eRunResult {
  int exit_code = 0;          // the program's (or tidepool's) exit status; 128 + N when killed by N
  bool out_of_memory = false;  // its output names CUDA_ERROR_OUT_OF_MEMORY
  std::string checksum;       // from "checksum: <hex>" on stdout; empty when none was printed
  std::string error;          // when it failed: the last line it wrote on stderr
  std::optional<uint64_t> peak_device_bytes;  // simcuda's statistics, when it wrote them
  std::optional<uint64_t> simulated_time_ns;
  // What tidepool's runtime decided, from the run's trace (optimized runs that left one trace;
  // nothing when the trace holds no decision record).
  std::optional<report::RuntimeDecisions> decisions;
  bool traced = false;  // the run left exactly one readable trace
  bool ok() const { return exit_code == 0 && !checksum.empty(); }
};

// Runs the spec in `scratch` (a fresh directory for its traces, statistics and output).
E2eRunResult run_e2e(const E2eRunSpec& spec, const std::filesystem::path& scratch);

}  // namespace tidepool::cli
