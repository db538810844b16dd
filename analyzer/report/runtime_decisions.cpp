// Gathers the runtime's decision records of one trace into the report's section.
#include "analyzer/report/runtime_decisions.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "analyzer/report/optimized_memory.h"

namespace tidepool::report {
namespace {

bool is_decision(trace::RecordTag tag) {
  using T = trace::RecordTag;
  return tag == T::plan_installed || tag == T::pool_hit || tag == T::pool_miss ||
         tag == T::fallback || tag == T::swap_out || tag == T::swap_in || tag == T::eviction ||
         tag == T::map_deferred || tag == T::mapped_at_first_use || tag == T::return_to_recording;
}

// Counts reasons by their text; an unnamed reason (string id 0) reads "(no reason given)".
class ReasonTally {
 public:
  void add(std::string_view reason) {
    ++counts_[reason.empty() ? std::string("(no reason given)") : std::string(reason)];
  }
  std::vector<ReasonCount> most_frequent_first() const {
    std::vector<ReasonCount> out;
    for (const auto& [reason, count] : counts_) out.push_back({reason, count});
    std::stable_sort(out.begin(), out.end(),
                     [](const ReasonCount& a, const ReasonCount& b) { return a.count > b.count; });
    return out;
  }

 private:
  std::map<std::string, uint64_t> counts_;
};

void add_transfer(TransferTotals& totals, uint64_t bytes, uint64_t start_ns, uint64_t end_ns) {
  ++totals.count;
  totals.bytes += bytes;
  if (end_ns > start_ns) totals.device_ns += end_ns - start_ns;
}

}  // namespace

std::optional<RuntimeDecisions> runtime_decisions(const trace::EventSource& source) {
  if (!source.any(is_decision)) return std::nullopt;
  std::unordered_set<uint64_t> pool_hit_ids, deferred_ids;
  source.read(is_decision, [&](const trace::Event& e, uint64_t) {
    if (const auto* hit = std::get_if<trace::PoolHit>(&e.record))
      pool_hit_ids.insert(hit->alloc_id);
    if (const auto* deferred = std::get_if<trace::MapDeferred>(&e.record))
      deferred_ids.insert(deferred->alloc_id);
  });

  const trace::Trace& trace = source.tables();
  RuntimeDecisions d;
  ReasonTally misses, fallbacks, returns;
  bool on_demand_untimed = false;
  OptimizedMemoryReplay memory(std::move(pool_hit_ids), std::move(deferred_ids));
  const auto replayed = [](trace::RecordTag tag) {
    return is_decision(tag) || MemoryReplay::applies_to(tag);
  };
  source.read(replayed, [&](const trace::Event& e, uint64_t) {
    memory.apply(e);
    std::visit(
        [&](const auto& r) {
          using R = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<R, trace::PlanInstalled>) {
            d.plans.push_back({e.seq, e.time_ns, std::string(trace.string(r.fingerprint_id)),
                               r.arena_bytes, r.planned_peak_bytes, r.swaps});
            d.planned_peak_bytes = std::max(d.planned_peak_bytes, r.planned_peak_bytes);
          } else if constexpr (std::is_same_v<R, trace::PoolHit>) {
            ++d.pool_hits;
          } else if constexpr (std::is_same_v<R, trace::PoolMiss>) {
            ++d.pool_misses;
            misses.add(trace.string(r.reason_id));
          } else if constexpr (std::is_same_v<R, trace::Fallback>) {
            ++d.fallbacks;
            fallbacks.add(trace.string(r.reason_id));
          } else if constexpr (std::is_same_v<R, trace::SwapOut>) {
            add_transfer(d.swap_outs, r.bytes, r.start_ns, r.end_ns);
          } else if constexpr (std::is_same_v<R, trace::SwapIn>) {
            add_transfer(d.swap_ins, r.bytes, r.start_ns, r.end_ns);
            if (r.on_demand) {
              add_transfer(d.on_demand_swap_ins, r.bytes, r.start_ns, r.end_ns);
              on_demand_untimed = on_demand_untimed || r.end_ns <= r.start_ns;
            }
          } else if constexpr (std::is_same_v<R, trace::Eviction>) {
            ++d.evictions;
            d.bytes_evicted += r.bytes;
          } else if constexpr (std::is_same_v<R, trace::MapDeferred>) {
            ++d.maps_deferred;
          } else if constexpr (std::is_same_v<R, trace::MappedAtFirstUse>) {
            ++d.mapped_at_first_use;
          } else if constexpr (std::is_same_v<R, trace::ReturnToRecording>) {
            ++d.returns_to_recording;
            returns.add(trace.string(r.reason_id));
          }
        },
        e.record);
  });
  d.miss_reasons = misses.most_frequent_first();
  d.fallback_reasons = fallbacks.most_frequent_first();
  d.return_reasons = returns.most_frequent_first();
  d.stall_known = !on_demand_untimed;
  d.requested_peak_bytes = memory.requested_peak_bytes();
  d.optimized_peak_bytes = memory.peak_bytes();
  return d;
}

}  // namespace tidepool::report
