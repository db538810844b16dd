// What a whole trace says for the swap model, whichever iteration is modelled, found in one pass
// (over a Trace, or a file read in order):
// the device allocations in the order they were made (and which of them the runtime could never
// move), the operations (launches, copies, sets, graph launches; captured work left out) numbered
// across the whole trace with their device durations, and each allocation's accesses by those
// numbers. An iteration is then a range of operation numbers, and comparing two iterations is
// comparing ranges of these lists: nothing is rebuilt per iteration.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "analyzer/swap/model.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::swap {

struct AllocationFacts {
  std::uint64_t alloc_id = 0;
  Bytes size = 0;
  std::size_t alloc_event = 0;
  std::size_t free_event = kNotFreed;
  // Referenced indirectly, its address queried or exported, or live at a launch whose accesses
  // could not be seen (undecoded parameters, graph launches).
  bool never_swapped = false;

  static constexpr std::size_t kNotFreed = std::numeric_limits<std::size_t>::max();
  bool freed_before(std::size_t event) const { return free_event < event; }
};

class TraceFacts {
 public:
  // One pass over `source`, which also hands the events whose tags `also` wants to `also_visit`
  // (in sequence order, with their indices), so that a caller that needs other events of the
  // trace reads it once.
  explicit TraceFacts(const trace::EventSource& source,
                      const trace::InOrderReader::Wanted& also = {},
                      const trace::EventSource::Visit& also_visit = {});

  // Device allocations (not captured), ascending by the event that made them.
  std::span<const AllocationFacts> allocations() const { return allocations_; }
  // The index in allocations() of a device allocation id.
  std::optional<std::uint32_t> allocation_index(std::uint64_t alloc_id) const;
  // The first allocation made at or after trace event `event`.
  std::uint32_t first_allocation_at_or_after(std::size_t event) const;

  // Operations issued before trace event `event` (0..events.size()).
  std::uint32_t ops_before(std::size_t event) const { return ops_before_[event]; }
  // The device duration of operation `op` (by its number across the trace): its timing, else the
  // mean of its kind's timed ones, else a cost model (then `estimated`).
  double op_seconds(std::uint32_t op) const { return op_seconds_[op]; }
  bool op_estimated(std::uint32_t op) const { return op_estimated_[op]; }
  // The accesses of allocation `index`, ascending by operation number (Access::op), at most one
  // per operation.
  std::span<const Access> accesses(std::uint32_t index) const {
    return {accesses_.data() + access_first_[index], accesses_.data() + access_first_[index + 1]};
  }

 private:
  struct Scan;
  void add(const trace::Record& record, std::size_t index, Scan& scan);  // trace event `index`
  void finish(std::size_t events, Scan& scan);
  void find_durations(Scan& scan);
  void index_accesses(Scan& scan);

  std::vector<AllocationFacts> allocations_;
  std::vector<std::uint32_t>
      by_id_;  // allocations_' indices by alloc_id (then index), after the pass
  std::unordered_map<std::uint64_t, std::uint32_t> live_index_;  // during the pass: live ones only
  std::vector<std::uint32_t> ops_before_;
  std::vector<double> op_seconds_;
  std::vector<bool> op_estimated_;
  std::vector<std::uint32_t> access_first_;
  std::vector<Access> accesses_;
};

// Whether a trace record is an operation of the swap model (what TraceFacts numbers).
bool is_model_op(const trace::Record& record);

}  // namespace tidepool::swap
