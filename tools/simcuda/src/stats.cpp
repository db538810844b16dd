// The SIMCUDA_STATS counters and their JSON file.
#include "tools/simcuda/src/stats.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "tools/simcuda/src/settings.h"

namespace simcuda {
namespace {

struct Counters {
  std::mutex mutex;
  uint64_t requested_live = 0, requested_peak = 0;
  uint64_t device_live = 0, device_peak = 0;
  uint64_t allocations = 0, frees = 0, kernel_launches = 0;
  uint64_t copies[4] = {};
  uint64_t copy_bytes[4] = {};
  uint64_t pinned_live = 0, pinned_peak = 0;
  uint64_t managed_live = 0, managed_peak = 0, managed_allocations = 0;
  uint64_t injected_out_of_memory = 0;
};

Counters& counters() {
  static Counters& instance = *new Counters;
  return instance;
}

std::string expand_pid(const std::string& pattern) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p') {
      out += std::to_string(getpid());
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace

void stats_allocation(uint64_t requested) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  ++c.allocations;
  c.requested_live += requested;
  c.requested_peak = std::max(c.requested_peak, c.requested_live);
}

void stats_free(uint64_t requested) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  ++c.frees;
  c.requested_live -= requested;
}

void stats_device_bytes(int64_t delta) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  c.device_live += static_cast<uint64_t>(delta);
  c.device_peak = std::max(c.device_peak, c.device_live);
}

void stats_kernel_launch() {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  ++c.kernel_launches;
}

void stats_copy(CopyKind kind, uint64_t bytes) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  ++c.copies[static_cast<int>(kind)];
  c.copy_bytes[static_cast<int>(kind)] += bytes;
}

void stats_host_pinned(int64_t delta) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  c.pinned_live += static_cast<uint64_t>(delta);
  c.pinned_peak = std::max(c.pinned_peak, c.pinned_live);
}

void stats_managed(int64_t delta) {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  if (delta > 0) ++c.managed_allocations;
  c.managed_live += static_cast<uint64_t>(delta);
  c.managed_peak = std::max(c.managed_peak, c.managed_live);
}

void stats_injected_out_of_memory() {
  Counters& c = counters();
  const std::lock_guard lock(c.mutex);
  ++c.injected_out_of_memory;
}

void write_stats_file(int64_t simulated_time_ns) {
  const std::string& pattern = settings().stats_path;
  if (pattern.empty()) return;
  Counters& c = counters();
  nlohmann::ordered_json j;
  {
    const std::lock_guard lock(c.mutex);
    j["peak_requested_bytes"] = c.requested_peak;
    j["peak_device_bytes"] = c.device_peak;
    j["device_bytes_at_exit"] = c.device_live;
    j["requested_bytes_at_exit"] = c.requested_live;
    j["allocations"] = c.allocations;
    j["frees"] = c.frees;
    j["kernel_launches"] = c.kernel_launches;
    j["simulated_time_ns"] = simulated_time_ns;
    j["memcpy_htod"] = {{"count", c.copies[0]}, {"bytes", c.copy_bytes[0]}};
    j["memcpy_dtoh"] = {{"count", c.copies[1]}, {"bytes", c.copy_bytes[1]}};
    j["memcpy_dtod"] = {{"count", c.copies[2]}, {"bytes", c.copy_bytes[2]}};
    j["memset"] = {{"count", c.copies[3]}, {"bytes", c.copy_bytes[3]}};
    j["peak_host_pinned_bytes"] = c.pinned_peak;
    j["managed_allocations"] = c.managed_allocations;
    j["peak_managed_bytes"] = c.managed_peak;
    j["managed_bytes_at_exit"] = c.managed_live;
    j["capacity_bytes"] = settings().memory_bytes;
    j["injected_out_of_memory"] = c.injected_out_of_memory;
  }
  const std::string path = expand_pid(pattern);
  std::ofstream out(path);
  out << j.dump() << '\n';
  if (!out) std::fprintf(stderr, "simcuda: cannot write SIMCUDA_STATS file %s\n", path.c_str());
}

}  // namespace simcuda
