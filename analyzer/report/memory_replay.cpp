// simcuda's counting rules, applied event by event.
#include "analyzer/report/memory_replay.h"

#include <algorithm>
#include <variant>

namespace tidepool::report {

void MemoryReplay::apply(const trace::Event& event) {
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, trace::Alloc>) {
          on(r, event.time_ns);
        } else if constexpr (std::is_same_v<R, trace::Free> || std::is_same_v<R, trace::VmmMap> ||
                             std::is_same_v<R, trace::VmmUnmap> ||
                             std::is_same_v<R, trace::ContextDestroy>) {
          on(r);
        }
      },
      event.record);
  ++events_applied_;
}

bool MemoryReplay::applies_to(trace::RecordTag tag) {
  using T = trace::RecordTag;
  return tag == T::alloc || tag == T::free || tag == T::vmm_map || tag == T::vmm_unmap || tag == T::context_destroy;
}

void MemoryReplay::on(const trace::Alloc& a, uint64_t time_ns) {
  if (a.captured) return;  // a graph's memory node: no memory now
  Live live;
  live.info = {a.alloc_id, a.kind, a.address, a.size, time_ns, a.stack_id};
  live.context = a.context;
  live.device = a.device;
  if (!live_.emplace(a.alloc_id, live).second) return;  // a repeated id: the first one stands
  KindTotals& kind = kinds_[a.kind];
  kind.kind = a.kind;
  ++kind.allocations;
  kind.bytes_allocated += a.size;
  uint64_t& kind_live = kind_live_bytes_[a.kind];
  kind_live += a.size;
  kind.peak_live_bytes = std::max(kind.peak_live_bytes, kind_live);
  if (!trace::is_device_memory(a.kind)) return;
  ++allocations_;
  DeviceTotals& device = devices_[a.device];
  device.device = a.device;
  device.leaked_bytes += a.size;
  device.peak_requested_bytes = std::max(device.peak_requested_bytes, device.leaked_bytes);
  live_device_bytes_ += a.size;
  if (live_device_bytes_ > peak_device_bytes_) {
    peak_device_bytes_ = live_device_bytes_;
    peak_event_index_ = events_applied_;
  }
}

void MemoryReplay::on(const trace::Free& f) {
  if (f.captured) return;  // a graph's free node
  const auto it = live_.find(f.alloc_id);
  if (it == live_.end()) return;  // freed with its context already, or never recorded
  Live& live = it->second;
  if (live.info.kind == trace::AllocKind::vmm_physical) {
    live.released = true;
    if (live.mappings > 0) return;  // memory stays until the last unmap
  }
  end(f.alloc_id, true);
}

void MemoryReplay::on(const trace::VmmMap& m) {
  const auto it = live_.find(m.physical_alloc_id);
  if (it == live_.end()) return;
  mappings_[m.address] = {m.size, m.physical_alloc_id};
  ++it->second.mappings;
}

void MemoryReplay::on(const trace::VmmUnmap& u) {
  // Every mapping that overlaps the unmapped range goes (the driver forbids partial unmaps).
  auto it = mappings_.upper_bound(u.address);
  if (it != mappings_.begin() && std::prev(it)->first + std::prev(it)->second.size > u.address) {
    --it;
  }
  while (it != mappings_.end() && it->first < u.address + u.size) {
    const uint64_t physical = it->second.physical_alloc_id;
    it = mappings_.erase(it);
    const auto p = live_.find(physical);
    if (p == live_.end()) continue;
    if (p->second.mappings > 0) --p->second.mappings;
    if (p->second.mappings == 0 && p->second.released) end(physical, true);
  }
}

void MemoryReplay::on(const trace::ContextDestroy& c) {
  std::vector<uint64_t> held;
  for (const auto& [id, live] : live_) {
    if (live.context == c.context) held.push_back(id);
  }
  for (uint64_t id : held) end(id, false);
}

void MemoryReplay::end(uint64_t alloc_id, bool counted) {
  const auto it = live_.find(alloc_id);
  const AllocationInfo info = it->second.info;
  const int32_t device = it->second.device;
  live_.erase(it);
  kind_live_bytes_[info.kind] -= info.size;
  if (counted) ++kinds_[info.kind].frees;
  if (!trace::is_device_memory(info.kind)) return;
  live_device_bytes_ -= info.size;
  devices_[device].leaked_bytes -= info.size;
  if (counted) ++frees_;
}

std::vector<AllocationInfo> MemoryReplay::live_device_allocations() const {
  std::vector<AllocationInfo> out;
  for (const auto& [id, live] : live_) {
    if (trace::is_device_memory(live.info.kind)) out.push_back(live.info);
  }
  std::sort(out.begin(), out.end(), [](const AllocationInfo& a, const AllocationInfo& b) {
    return a.size != b.size ? a.size > b.size : a.alloc_id < b.alloc_id;
  });
  return out;
}

std::vector<KindTotals> MemoryReplay::kind_totals() const {
  std::vector<KindTotals> out;
  for (const auto& [kind, totals] : kinds_) {
    KindTotals t = totals;
    const auto live = kind_live_bytes_.find(kind);
    t.live_bytes_at_exit = live == kind_live_bytes_.end() ? 0 : live->second;
    out.push_back(t);
  }
  return out;
}

std::vector<DeviceTotals> MemoryReplay::device_totals() const {
  std::vector<DeviceTotals> out;
  for (const auto& [device, totals] : devices_) out.push_back(totals);
  return out;
}

}  // namespace tidepool::report
