// The report's section on what tidepool's runtime decided (tidepool run --optimize), gathered from
// the trace's decision records: plans installed, pool hits and misses, fallbacks, swaps, evictions
// and returns to recording, with the peak those decisions left on the device.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/trace/event_source.h"

namespace tidepool::report {

// One PlanInstalled record.
struct InstalledPlan {
  uint64_t seq = 0;      // the record's event sequence number
  uint64_t time_ns = 0;  // host time
  std::string fingerprint;
  uint64_t arena_bytes = 0;
  uint64_t planned_peak_bytes = 0;
  uint32_t swaps = 0;
};

// How many records gave one reason, most frequent first (ties by reason).
struct ReasonCount {
  std::string reason;
  uint64_t count = 0;
};

// Swap-outs or swap-ins: count, bytes, and their device time (sum of end - start of each).
struct TransferTotals {
  uint64_t count = 0;
  uint64_t bytes = 0;
  uint64_t device_ns = 0;
};

struct RuntimeDecisions {
  std::vector<InstalledPlan> plans;  // in trace order
  uint64_t pool_hits = 0;
  uint64_t pool_misses = 0;
  std::vector<ReasonCount> miss_reasons;
  uint64_t fallbacks = 0;
  std::vector<ReasonCount> fallback_reasons;
  TransferTotals swap_outs;
  TransferTotals swap_ins;           // all of them, on-demand ones included
  TransferTotals on_demand_swap_ins;  // misses: a launch needed the buffer before the plan brought it back
  // The time stalled is the device time of the on-demand swap-ins (the launch waited for each):
  // known when every one of them carries its times (and 0 when there were none).
  bool stall_known = true;
  uint64_t evictions = 0;
  uint64_t bytes_evicted = 0;
  // Swap-space buffers given their address only, their memory mapped at their first use
  // (MapDeferred), and how many of them were mapped since (MappedAtFirstUse).
  uint64_t maps_deferred = 0;
  uint64_t mapped_at_first_use = 0;
  uint64_t returns_to_recording = 0;
  std::vector<ReasonCount> return_reasons;
  // Device memory the program requested at its peak (what it holds without optimization), and the
  // peak left by the decisions (optimized_memory.h); the planned peak is the largest of the
  // installed plans', 0 when none was installed.
  uint64_t requested_peak_bytes = 0;
  uint64_t optimized_peak_bytes = 0;
  uint64_t planned_peak_bytes = 0;
};

// The section, or nothing when the trace has no decision record.
std::optional<RuntimeDecisions> runtime_decisions(const trace::EventSource& source);

}  // namespace tidepool::report
