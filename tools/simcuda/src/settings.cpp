// Reads the SIMCUDA_* environment variables once.
#include "tools/simcuda/src/settings.h"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <thread>

namespace simcuda {

bool parse_bytes(const std::string& text, uint64_t& bytes) {
  if (text.empty()) return false;
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return false;
  unsigned shift = 0;
  const std::string suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (!suffix.empty()) return false;
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    if (value > (std::numeric_limits<uint64_t>::max() - 9) / 10) return false;
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (value > (std::numeric_limits<uint64_t>::max() >> shift)) return false;
  bytes = value << shift;
  return true;
}

namespace {

constexpr unsigned kMaxThreads = 256;
constexpr unsigned kDefaultMaxThreads = 8;

// The CPUs this process may run on (its affinity mask), at least 1.
unsigned usable_cpus() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(CPU_COUNT(&set), 1);
  return std::max(std::thread::hardware_concurrency(), 1u);
}

// "0.2" or "0.2:7": a chance from 0 to 1 and an optional whole-number seed.
bool parse_oom_rate(const char* text, double& rate, uint64_t& seed) {
  char* end = nullptr;
  rate = std::strtod(text, &end);
  if (end == text || !(rate >= 0 && rate <= 1)) return false;
  if (*end == '\0') return true;
  if (*end != ':' || end[1] < '0' || end[1] > '9') return false;
  const char* digits = end + 1;
  errno = 0;
  seed = std::strtoull(digits, &end, 10);
  return *end == '\0' && errno == 0;
}

Settings read_settings() {
  Settings s;
  s.threads = std::min(usable_cpus(), kDefaultMaxThreads);
  if (const char* memory = std::getenv("SIMCUDA_MEMORY")) {
    if (!parse_bytes(memory, s.memory_bytes) || s.memory_bytes == 0 || s.memory_bytes > (1ull << 40))
      s.error = std::string("bad SIMCUDA_MEMORY='") + memory + "' (want bytes with an optional K/M/G suffix, at most 1T)";
  }
  if (const char* gbps = std::getenv("SIMCUDA_LINK_GBPS")) {
    char* end = nullptr;
    s.link_gbps = std::strtod(gbps, &end);
    if (end == gbps || *end != '\0' || !(s.link_gbps > 0) || s.link_gbps > 1e6)
      s.error = std::string("bad SIMCUDA_LINK_GBPS='") + gbps + "' (want a positive number of GB/s)";
  }
  if (const char* stats = std::getenv("SIMCUDA_STATS")) s.stats_path = stats;
  if (const char* threads = std::getenv("SIMCUDA_THREADS")) {
    char* end = nullptr;
    const unsigned long value = std::strtoul(threads, &end, 10);
    if (threads[0] < '0' || threads[0] > '9' || *end != '\0' || value < 1 || value > kMaxThreads)
      s.error = std::string("bad SIMCUDA_THREADS='") + threads + "' (want a whole number from 1 to 256)";
    else
      s.threads = static_cast<unsigned>(value);
  }
  if (const char* oom = std::getenv("SIMCUDA_OOM_RATE")) {
    if (!parse_oom_rate(oom, s.oom_rate, s.oom_seed))
      s.error = std::string("bad SIMCUDA_OOM_RATE='") + oom +
                "' (want a chance from 0 to 1, optionally :SEED)";
  }
  return s;
}

}  // namespace

const Settings& settings() {
  static const Settings instance = read_settings();
  return instance;
}

}  // namespace simcuda
