// RuntimeDecisions -> JSON, keys in the documented order.
#include "analyzer/report/runtime_decisions_json.h"

namespace tidepool::report {
namespace {

using Json = nlohmann::ordered_json;

Json reasons(const std::vector<ReasonCount>& list) {
  Json out = Json::array();
  for (const ReasonCount& r : list) out.push_back({{"reason", r.reason}, {"count", r.count}});
  return out;
}

Json transfer(const TransferTotals& t) {
  return {{"count", t.count}, {"bytes", t.bytes}, {"device_ns", t.device_ns}};
}

}  // namespace

Json runtime_decisions_json(const RuntimeDecisions& d) {
  Json plans = Json::array();
  for (const InstalledPlan& p : d.plans) {
    plans.push_back({{"seq", p.seq},
                     {"time_ns", p.time_ns},
                     {"fingerprint", p.fingerprint},
                     {"arena_bytes", p.arena_bytes},
                     {"planned_peak_bytes", p.planned_peak_bytes},
                     {"swaps", p.swaps}});
  }
  Json stalled = d.stall_known ? Json(d.on_demand_swap_ins.device_ns) : Json(nullptr);
  return {{"requested_peak_bytes", d.requested_peak_bytes},
          {"optimized_peak_bytes", d.optimized_peak_bytes},
          {"planned_peak_bytes", d.planned_peak_bytes},
          {"plans", plans},
          {"pool", {{"hits", d.pool_hits}, {"misses", d.pool_misses}, {"miss_reasons", reasons(d.miss_reasons)}}},
          {"fallbacks", {{"count", d.fallbacks}, {"reasons", reasons(d.fallback_reasons)}}},
          {"swaps",
           {{"out", transfer(d.swap_outs)},
            {"in", transfer(d.swap_ins)},
            {"on_demand_in", transfer(d.on_demand_swap_ins)},
            {"stalled_ns", stalled}}},
          {"evictions", {{"count", d.evictions}, {"bytes", d.bytes_evicted}}},
          {"returns_to_recording", {{"count", d.returns_to_recording}, {"reasons", reasons(d.return_reasons)}}}};
}

Json runtime_totals_json(const std::optional<RuntimeDecisions>& d) {
  const RuntimeDecisions none;
  const RuntimeDecisions& r = d ? *d : none;
  return {{"plans_installed", r.plans.size()},
          {"pool_hits", r.pool_hits},
          {"pool_misses", r.pool_misses},
          {"fallbacks", r.fallbacks},
          {"swap_outs", r.swap_outs.count},
          {"swap_ins", r.swap_ins.count},
          {"on_demand_swap_ins", r.on_demand_swap_ins.count},
          {"evictions", r.evictions},
          {"maps_deferred", r.maps_deferred},
          {"mapped_at_first_use", r.mapped_at_first_use},
          {"returns_to_recording", r.returns_to_recording},
          {"bytes_swapped_out", r.swap_outs.bytes},
          {"bytes_swapped_in", r.swap_ins.bytes}};
}

}  // namespace tidepool::report
