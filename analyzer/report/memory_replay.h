// Replays a trace's memory events with simcuda's counting rules (issue 2, "Ground truth"):
// device memory is cuMemAlloc_v2, cuMemAllocPitch_v2 (pitch * height), cuMemAllocAsync,
// cuMemAllocFromPoolAsync and cuMemCreate, counted at the host call; a free is cuMemFree_v2 or
// cuMemFreeAsync, or for a physical allocation the later of its release and its last unmap;
// destroying a context (or resetting a primary context) frees what it held without counting frees.
// Other kinds (host-pinned, managed, arrays, ...) are tracked per kind but never in the device sum.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

class MemoryReplay {
 public:
  // Applies one event (non-memory events are ignored).
  void apply(const trace::Event& event);
  // Whether apply() looks at records with this tag (allocations, frees, VMM maps and unmaps,
  // context destroys).
  static bool applies_to(trace::RecordTag tag);

  uint64_t live_device_bytes() const { return live_device_bytes_; }
  uint64_t peak_device_bytes() const { return peak_device_bytes_; }
  // The index (in apply order) of the event that first reached the peak; nothing before any.
  std::optional<size_t> peak_event_index() const { return peak_event_index_; }
  uint64_t allocations() const { return allocations_; }
  uint64_t frees() const { return frees_; }
  // The device allocations live now, largest first (ties by id).
  std::vector<AllocationInfo> live_device_allocations() const;
  // Per kind, in enum order, for the kinds seen.
  std::vector<KindTotals> kind_totals() const;
  // Per device, in ordinal order, for the devices with device allocations.
  std::vector<DeviceTotals> device_totals() const;

 private:
  struct Live {
    AllocationInfo info;
    uint64_t context = 0;
    int32_t device = 0;
    bool released = false;  // vmm_physical: cuMemRelease seen
    uint32_t mappings = 0;  // vmm_physical: mappings not yet unmapped
  };
  struct Mapping {
    uint64_t size = 0;
    uint64_t physical_alloc_id = 0;
  };

  void on(const trace::Alloc& a, uint64_t time_ns);
  void on(const trace::Free& f);
  void on(const trace::VmmMap& m);
  void on(const trace::VmmUnmap& u);
  void on(const trace::ContextDestroy& c);
  // Ends an allocation's life; counts a device free when counted is true.
  void end(uint64_t alloc_id, bool counted);

  std::unordered_map<uint64_t, Live> live_;
  std::map<uint64_t, Mapping> mappings_;  // by address
  std::map<trace::AllocKind, KindTotals> kinds_;
  std::map<trace::AllocKind, uint64_t> kind_live_bytes_;
  std::map<int32_t, DeviceTotals> devices_;  // leaked_bytes holds the live bytes until the end
  uint64_t live_device_bytes_ = 0;
  uint64_t peak_device_bytes_ = 0;
  std::optional<size_t> peak_event_index_;
  size_t events_applied_ = 0;
  uint64_t allocations_ = 0;
  uint64_t frees_ = 0;
};

}  // namespace tidepool::report
