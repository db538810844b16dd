// SIMCUDA_OOM_RATE's draws (see injected_failures.h).
#include "tools/simcuda/src/injected_failures.h"

#include <atomic>
#include <cstdint>

#include "tools/simcuda/src/settings.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

// SplitMix64's finalizer: the k-th draw is a hash of (seed, k), whatever thread makes it.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::atomic<uint64_t> draws{0};

}  // namespace

bool inject_out_of_memory() {
  const Settings& s = settings();
  if (s.oom_rate <= 0) return false;
  const uint64_t k = draws.fetch_add(1, std::memory_order_relaxed);
  const double uniform =
      static_cast<double>(mix(s.oom_seed * 0x100000001b3ull + k) >> 11) * 0x1.0p-53;
  if (uniform >= s.oom_rate) return false;
  stats_injected_out_of_memory();
  return true;
}

}  // namespace simcuda
