// The runs of `tidepool bench e2e`: per example, size and seed, the reference run without
// tidepool, then one run per optimized mode (for train_mlp also the second run with the plan
// cached, and the runs with SIMCUDA_MEMORY at a fraction of the reference's peak), each compared
// with the reference.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bench_e2e_run.h"

namespace tidepool::cli {

// An example program and its flags per size ("default": none).
struct E2eExample {
  std::string name;
  std::vector<std::string> tiny;
  std::vector<std::string> small;
  bool targets = false;  // train_mlp: also the cached-plan and memory-limited runs
};

const std::vector<E2eExample>& e2e_examples();

struct E2eSettings {
  double max_slowdown_pct = 5;   // --max-slowdown of runs with swap
  double memory_fraction = 0.7;  // of the reference's peak, for the memory-limited runs; 0: none
};

// One run and how it compares with its reference.
struct E2eRow {
  std::string example, size, mode, run;  // run: "first" (empty plan cache) or "cached"
  int seed = 0;
  std::vector<std::string> args;
  uint64_t memory_limit_bytes = 0;
  E2eRunResult result;
  bool checksum_matches = false;
  std::optional<double> peak_ratio, time_ratio;  // only when both runs are ok
};

class E2eMatrix {
 public:
  E2eMatrix(E2eSettings settings, std::filesystem::path scratch);

  // `modes`: "off" (the memory-limited run without tidepool) and --optimize values.
  void run_case(const E2eExample& example, const std::filesystem::path& program, const std::string& size,
                int seed, std::span<const std::string> modes);

  const std::vector<E2eRow>& rows() const { return rows_; }

 private:
  struct Case {
    const E2eExample& example;
    const std::filesystem::path& program;
    const std::string& size;
    int seed;
    std::vector<std::string> args;
  };

  std::filesystem::path fresh_dir(const char* what);
  const E2eRow& run(const Case& c, const std::string& mode, const std::string& run_kind, uint64_t memory_limit,
                    const std::filesystem::path& plan_cache, const E2eRunResult* reference);

  E2eSettings settings_;
  std::filesystem::path scratch_;
  int dirs_ = 0;
  std::vector<E2eRow> rows_;
};

}  // namespace tidepool::cli
