// cuInit, cuDriverGetVersion, and what happens at load and at exit (the SIMCUDA_STATS file).
#include "tools/simcuda/src/init.h"

#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/fault_handler.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/settings.h"
#include "tools/simcuda/src/stats.h"
#include "tools/simcuda/src/timeline.h"

namespace simcuda {
namespace {

std::atomic<bool> init_done{false};
// A child forked after cuInit has no stream workers: it must not wait for the parent's work,
// and it is not a process that initialized simcuda.
std::atomic<bool> forked_child{false};

void at_exit() {
  if (forked_child) return;
  synchronize_device();
  write_stats_file(timeline().finish());
}

CUresult initialize() {
  static std::once_flag once;
  static CUresult result = CUDA_SUCCESS;
  std::call_once(once, [] {
    if (!settings().error.empty()) {
      std::fprintf(stderr, "simcuda: %s\n", settings().error.c_str());
      result = CUDA_ERROR_INVALID_VALUE;
      return;
    }
    reserve_address_space();
    install_fault_handler();
    std::atexit(at_exit);
    pthread_atfork(nullptr, nullptr, [] { forked_child = true; });
    init_done = true;
  });
  return result;
}

// Settings are read once, when the library is loaded.
[[maybe_unused]] const bool settings_read_at_load = (settings(), true);

}  // namespace

bool initialized() { return init_done.load(std::memory_order_acquire) && !forked_child; }

}  // namespace simcuda

SIMCUDA_API CUresult cuInit(unsigned int Flags) {
  return simcuda::guard([&] { return Flags != 0 ? CUDA_ERROR_INVALID_VALUE : simcuda::initialize(); });
}

SIMCUDA_API CUresult cuDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = 13000;
  return CUDA_SUCCESS;
}
