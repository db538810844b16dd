// Prints the runtime-decisions section: plans, memory, pool, fallbacks, swaps, evictions, returns.
#include "analyzer/report/runtime_decisions_text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "analyzer/report/units.h"

namespace tidepool::report {
namespace {

constexpr size_t kMaxPlansShown = 10;
constexpr size_t kMaxReasonsShown = 10;

unsigned long long u(uint64_t v) { return v; }

std::string bytes(uint64_t v) { return human_bytes(v); }

[[gnu::format(printf, 2, 3)]] void line(std::string& out, const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  out += buffer;
  out += '\n';
}

void reasons(std::string& out, const std::vector<ReasonCount>& list) {
  for (size_t i = 0; i < std::min(list.size(), kMaxReasonsShown); ++i) {
    line(out, "    %8llu  %s", u(list[i].count), list[i].reason.c_str());
  }
  if (list.size() > kMaxReasonsShown) line(out, "    ... and %zu more reasons", list.size() - kMaxReasonsShown);
}

std::string transfer(const TransferTotals& t) {
  return std::to_string(t.count) + " (" + bytes(t.bytes) + ", " + human_duration(t.device_ns) +
         " on the device)";
}

}  // namespace

std::string runtime_decisions_text(const RuntimeDecisions& d) {
  std::string out;
  line(out, "runtime decisions (tidepool run --optimize):");
  line(out, "  device memory: peak %s with optimization (replayed from the decisions), %s requested "
            "by the program, planned %s",
       bytes(d.optimized_peak_bytes).c_str(), bytes(d.requested_peak_bytes).c_str(),
       d.plans.empty() ? "- (no plan installed)" : bytes(d.planned_peak_bytes).c_str());
  line(out, "  plans installed: %zu", d.plans.size());
  for (size_t i = 0; i < std::min(d.plans.size(), kMaxPlansShown); ++i) {
    const InstalledPlan& p = d.plans[i];
    line(out, "    at %s (event #%llu): arena %s, planned peak %s, %u swaps, fingerprint %s",
         human_duration(p.time_ns).c_str(), u(p.seq), bytes(p.arena_bytes).c_str(),
         bytes(p.planned_peak_bytes).c_str(), p.swaps, p.fingerprint.empty() ? "-" : p.fingerprint.c_str());
  }
  if (d.plans.size() > kMaxPlansShown) line(out, "    ... and %zu more plans", d.plans.size() - kMaxPlansShown);
  line(out, "  pool: %llu hits, %llu misses", u(d.pool_hits), u(d.pool_misses));
  reasons(out, d.miss_reasons);
  line(out, "  fallbacks to the driver: %llu", u(d.fallbacks));
  reasons(out, d.fallback_reasons);
  line(out, "  swaps: out %s, in %s", transfer(d.swap_outs).c_str(), transfer(d.swap_ins).c_str());
  line(out, "  on-demand swap-ins (misses): %s, time stalled %s", transfer(d.on_demand_swap_ins).c_str(),
       d.stall_known ? human_duration(d.on_demand_swap_ins.device_ns).c_str() : "unknown");
  line(out, "  evictions (rescue from out of memory): %llu (%s)", u(d.evictions), bytes(d.bytes_evicted).c_str());
  line(out, "  swap-space buffers mapped at their first use: %llu of %llu deferred", u(d.mapped_at_first_use),
       u(d.maps_deferred));
  line(out, "  returns to recording: %llu", u(d.returns_to_recording));
  reasons(out, d.return_reasons);
  out += '\n';
  return out;
}

}  // namespace tidepool::report
