// The settings of the preloaded library, read once from TIDEPOOL_* environment variables when it
// loads (tidepool run sets them), never per call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tidepool::runtime {

struct Settings {
  bool disabled = false;        // TIDEPOOL_DISABLE=1: pass everything through, record nothing
  std::string output_dir = ".";  // TIDEPOOL_OUTPUT_DIR: where traces go
  bool overwrite = false;       // TIDEPOOL_FORCE=1: replace an existing trace of the same name
  bool stacks = true;           // TIDEPOOL_STACKS=0: no call stacks at allocations
  bool device_timing = true;    // TIDEPOOL_DEVICE_TIMING=0: no events around launches and copies
  bool cupti = false;           // TIDEPOOL_CUPTI=1: device times from CUPTI instead of events
  bool self_timing = false;     // TIDEPOOL_SELF_TIMING=1: each hook's own and driver time, at exit
  std::string real_libcuda;     // TIDEPOOL_REAL_LIBCUDA: the driver to call (default libcuda.so.1)
  std::string rank;             // RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, or empty

  // The optimizer (tidepool run --optimize / --plan); off unless TIDEPOOL_OPTIMIZE or TIDEPOOL_PLAN.
  bool optimize_pool = false;             // TIDEPOOL_OPTIMIZE: pool, swap or pool,swap
  bool optimize_swap = false;
  std::optional<uint64_t> budget_bytes;   // TIDEPOOL_BUDGET: the swap plan's peak target
  double max_slowdown_pct = 0;            // TIDEPOOL_MAX_SLOWDOWN: the swap plan's time target
  std::string plan_path;                  // TIDEPOOL_PLAN: an offline plan to enforce
  std::string plan_cache;                 // TIDEPOOL_PLAN_CACHE: a directory ("off": none, empty here)
  uint64_t pinned_limit_bytes = 0;        // TIDEPOOL_PINNED_LIMIT: pinned host memory for swapping
  std::string link = "pcie5";             // TIDEPOOL_LINK: the swap planner's host link
  std::string optimizer_error;            // the first bad optimizer setting: the optimizer stays off

  bool optimizing() const {
    return !disabled && optimizer_error.empty() && (optimize_pool || optimize_swap || !plan_path.empty());
  }
};

// Reads the settings through `lookup` (getenv in the library, a map in tests).
Settings read_settings(const char* (*lookup)(const char* name));

// The process's settings, read from the environment on first use.
const Settings& settings();

}  // namespace tidepool::runtime
