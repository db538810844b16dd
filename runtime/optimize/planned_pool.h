// The planned pool: one arena from the real driver, sized by the plan, whose slots serve the
// iteration's allocations at their planned offsets. A slot is served only when the allocation's
// size is the planned one and no slot sharing a byte with it is live (the plan is a prediction,
// never a promise). Freed memory is reused safely against queued work: the free records an event
// on every stream the program has used (as cuMemFree, which may synchronize, would have ordered
// them); the next occupant's first work on a stream other than the event's waits on it.
//
// Not thread-safe: the controller calls it under its lock.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "analyzer/plan/plan.h"
#include "runtime/driver_api.h"

namespace tidepool::runtime::optimize {

class PlannedPool {
 public:
  // Allocates the arena (cuMemAlloc); throws std::runtime_error when the driver refuses.
  PlannedPool(const DriverApi& api, const plan::PoolSection& pool,
              uint64_t allocations_per_iteration);
  ~PlannedPool();
  PlannedPool(const PlannedPool&) = delete;
  PlannedPool& operator=(const PlannedPool&) = delete;

  static constexpr uint32_t kNoSlot = UINT32_MAX;
  uint32_t slot_of(uint64_t ordinal) const {
    return ordinal < slot_of_ordinal_.size() ? slot_of_ordinal_[ordinal] : kNoSlot;
  }

  // Serves slot `slot` for an allocation of `bytes`: its address, or 0 with `*miss_reason` set.
  CUdeviceptr serve(uint32_t slot, uint64_t bytes, std::string_view* miss_reason);
  uint64_t offset_of(uint32_t slot) const { return slots_[slot].offset; }

  // The program freed the slot's allocation; `streams` are the streams the program has used.
  // Returns false when it had to fall back to synchronizing the context (an event could not be
  // recorded); the slot is free either way.
  bool release(uint32_t slot, std::span<const CUstream> streams,
               std::span<const CUstream> capturing);

  // The same when every stream the program used orders the next occupant's work after the free
  // already (StreamOrder::in_order): no event is recorded.
  void release_in_order(uint32_t slot);
  // Free memory may never be reused (a stream could not be ordered after its frees).
  void block_free_slots();

  // Before work on `stream` touches the slot's allocation: waits for the frees of the memory's
  // previous occupants on other streams (once per stream).
  void before_work(uint32_t slot, CUstream stream);

  uint64_t arena_bytes() const { return arena_bytes_; }
  uint64_t live_slots() const { return live_; }

 private:
  struct FreeMark {
    CUstream stream;
    CUevent event;
  };
  struct SlotState {
    uint64_t offset = 0;
    uint64_t bytes = 0;
    bool live = false;
    bool blocked = false;  // freed while a stream that used it was capturing: never reused
    std::vector<uint32_t> overlapping;  // slots sharing a byte with this one, itself included
    std::vector<FreeMark> freed_at;     // one event per stream, recorded at this slot's last free
    std::vector<FreeMark> must_wait;    // the previous occupants' frees, for this occupant
    std::vector<CUstream> waited;       // streams that already waited for them
  };

  CUevent event_for(SlotState& slot, CUstream stream);

  const DriverApi& api_;
  CUdeviceptr arena_ = 0;
  uint64_t arena_bytes_ = 0;
  uint64_t live_ = 0;
  std::vector<SlotState> slots_;
  std::vector<uint32_t> slot_of_ordinal_;
};

}  // namespace tidepool::runtime::optimize
