// The table and the JSON of `tidepool bench e2e`.
#include "bench_e2e_output.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/report/runtime_decisions_json.h"
#include "analyzer/report/units.h"

namespace tidepool::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string result_text(const E2eRunResult& r) {
  if (r.ok()) return "ok";
  std::string text = r.out_of_memory ? "OOM, " : "FAILED, ";
  text += r.exit_code > 128 ? "signal " + std::to_string(r.exit_code - 128) : "exit " + std::to_string(r.exit_code);
  if (r.exit_code == 0) text += ", no checksum";
  return text;
}

// A short account of the runtime's decisions: "-" without tidepool, "no trace" when none was
// left, "none" when the trace has no decision.
std::string decisions_text(const E2eRow& r) {
  if (r.mode == "off") return "-";
  if (!r.result.traced) return "no trace";
  if (!r.result.decisions) return "none";
  const report::RuntimeDecisions& d = *r.result.decisions;
  char text[160];
  std::snprintf(text, sizeof text, "plans %zu, hits %llu, misses %llu, swaps %llu/%llu (%llu on demand), evictions %llu",
                d.plans.size(), static_cast<unsigned long long>(d.pool_hits),
                static_cast<unsigned long long>(d.pool_misses), static_cast<unsigned long long>(d.swap_outs.count),
                static_cast<unsigned long long>(d.swap_ins.count),
                static_cast<unsigned long long>(d.on_demand_swap_ins.count),
                static_cast<unsigned long long>(d.evictions));
  return text;
}

std::string ratio_text(const std::optional<double>& ratio) {
  if (!ratio) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", *ratio);
  return text;
}

Json optional_json(const auto& value) { return value ? Json(*value) : Json(nullptr); }

// The runtime's decision counters and planned peak, null for runs without decisions.
Json decisions_json(const E2eRunResult& x) {
  if (!x.decisions) return nullptr;
  Json out = report::runtime_totals_json(x.decisions);
  out["planned_peak_bytes"] = x.decisions->planned_peak_bytes;
  return out;
}

}  // namespace

void print_e2e_table(std::span<const E2eRow> rows) {
  std::printf("%-13s  %-7s  %4s  %-9s  %-6s  %10s  %-16s  %12s  %6s  %12s  %6s  %-8s  %s\n", "example", "size", "seed",
              "mode", "run", "memory", "result", "peak", "/off", "sim time", "/off", "checksum", "decisions");
  size_t failed = 0, differ = 0;
  for (const E2eRow& r : rows) {
    const E2eRunResult& x = r.result;
    const std::string checksum = !x.ok() ? "-" : r.checksum_matches ? "match" : "DIFFERS";
    std::printf("%-13s  %-7s  %4d  %-9s  %-6s  %10s  %-16s  %12s  %6s  %12s  %6s  %-8s  %s\n", r.example.c_str(),
                r.size.c_str(), r.seed, r.mode.c_str(), r.run.c_str(),
                r.memory_limit_bytes ? report::human_bytes(r.memory_limit_bytes).c_str() : "all",
                result_text(x).c_str(), x.peak_device_bytes ? report::human_bytes(*x.peak_device_bytes).c_str() : "-",
                ratio_text(r.peak_ratio).c_str(),
                x.simulated_time_ns ? report::human_duration(*x.simulated_time_ns).c_str() : "-",
                ratio_text(r.time_ratio).c_str(), checksum.c_str(), decisions_text(r).c_str());
    failed += x.ok() ? 0 : 1;
    differ += x.ok() && !r.checksum_matches ? 1 : 0;
  }
  std::printf("%zu runs: %zu failed, %zu checksums differ from the run without tidepool\n", rows.size(), failed, differ);
  for (const E2eRow& r : rows) {
    if (r.result.ok()) continue;
    std::printf("  failed: %s %s seed %d %s %s%s: %s: %s\n", r.example.c_str(), r.size.c_str(), r.seed, r.mode.c_str(),
                r.run.c_str(), r.memory_limit_bytes ? " (memory limited)" : "", result_text(r.result).c_str(),
                r.result.error.empty() ? "(no error output)" : r.result.error.c_str());
  }
}

void print_e2e_json(std::span<const E2eRow> rows) {
  Json out = Json::array();
  for (const E2eRow& r : rows) {
    const E2eRunResult& x = r.result;
    out.push_back({{"example", r.example},
                   {"size", r.size},
                   {"seed", r.seed},
                   {"args", r.args},
                   {"mode", r.mode},
                   {"run", r.run},
                   {"memory_limit_bytes", r.memory_limit_bytes},
                   {"ok", x.ok()},
                   {"exit_code", x.exit_code},
                   {"out_of_memory", x.out_of_memory},
                   {"error", x.error},
                   {"checksum", x.checksum.empty() ? Json(nullptr) : Json(x.checksum)},
                   {"checksum_matches", r.checksum_matches},
                   {"peak_device_bytes", optional_json(x.peak_device_bytes)},
                   {"simulated_time_ns", optional_json(x.simulated_time_ns)},
                   {"peak_ratio", optional_json(r.peak_ratio)},
                   {"time_ratio", optional_json(r.time_ratio)},
                   {"traced", x.traced},
                   {"decisions", decisions_json(x)}});
  }
  std::printf("%s\n", out.dump(2).c_str());
}

}  // namespace tidepool::cli
