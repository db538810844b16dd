// The settings of the preloaded library, read once from TIDEPOOL_* environment variables when it
// loads (tidepool run sets them), never per call.
#pragma once

#include <string>

namespace tidepool::runtime {

struct Settings {
  bool disabled = false;        // TIDEPOOL_DISABLE=1: pass everything through, record nothing
  std::string output_dir = ".";  // TIDEPOOL_OUTPUT_DIR: where traces go
  bool overwrite = false;       // TIDEPOOL_FORCE=1: replace an existing trace of the same name
  bool stacks = true;           // TIDEPOOL_STACKS=0: no call stacks at allocations
  bool device_timing = true;    // TIDEPOOL_DEVICE_TIMING=0: no events around launches and copies
  bool cupti = false;           // TIDEPOOL_CUPTI=1: device times from CUPTI instead of events
  std::string real_libcuda;     // TIDEPOOL_REAL_LIBCUDA: the driver to call (default libcuda.so.1)
  std::string rank;             // RANK, OMPI_COMM_WORLD_RANK, PMI_RANK or SLURM_PROCID, or empty
};

// Reads the settings through `lookup` (getenv in the library, a map in tests).
Settings read_settings(const char* (*lookup)(const char* name));

// The process's settings, read from the environment on first use.
const Settings& settings();

}  // namespace tidepool::runtime
