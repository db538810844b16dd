// Self-timing's counters and its report (see self_timing.h).
#include "intercept/self_timing.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <vector>

#include "intercept/hook_index.h"
#include "intercept/hook_table.h"

namespace tidepool::intercept {
namespace {

struct HookTimes {
  std::atomic<uint64_t> calls{0};
  std::atomic<uint64_t> total_ns{0};
  std::atomic<uint64_t> driver_ns{0};
};

std::array<HookTimes, kHookCount> g_times;  // zero-initialised: usable before constructors run

}  // namespace

void add_self_timing(std::size_t index, uint64_t total_ns, uint64_t driver_ns) {
  HookTimes& h = g_times[index];
  h.calls.fetch_add(1, std::memory_order_relaxed);
  h.total_ns.fetch_add(total_ns, std::memory_order_relaxed);
  h.driver_ns.fetch_add(std::min(driver_ns, total_ns), std::memory_order_relaxed);
}

void print_self_timing() {
  struct Line {
    std::size_t index;
    uint64_t calls, own_ns, driver_ns;
  };
  std::vector<Line> lines;
  for (std::size_t i = 0; i < kHookCount; ++i) {
    const uint64_t calls = g_times[i].calls.load(std::memory_order_relaxed);
    if (calls == 0) continue;
    // A thread still calling at exit may have added to one sum and not yet the other.
    const uint64_t total_ns = g_times[i].total_ns.load(std::memory_order_relaxed);
    const uint64_t driver_ns =
        std::min(g_times[i].driver_ns.load(std::memory_order_relaxed), total_ns);
    lines.push_back({i, calls, total_ns - driver_ns, driver_ns});
  }
  std::ranges::sort(lines, [](const Line& a, const Line& b) { return a.own_ns > b.own_ns; });
  const auto rows = hook_rows();
  for (const Line& l : lines) {
    const double per_call = 1.0 / static_cast<double>(l.calls);
    std::fprintf(stderr,
                 "tidepool: self-timing: %.*s: %llu calls, %.0f ns in tidepool and %.0f ns in the "
                 "driver per call\n",
                 static_cast<int>(rows[l.index].symbol.size()), rows[l.index].symbol.data(),
                 static_cast<unsigned long long>(l.calls), static_cast<double>(l.own_ns) * per_call,
                 static_cast<double>(l.driver_ns) * per_call);
  }
}

}  // namespace tidepool::intercept
