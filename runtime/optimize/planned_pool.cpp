// The planned pool's arena, slot checks and stream ordering of reuse.
#include "runtime/optimize/planned_pool.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tidepool::runtime::optimize {
namespace {

bool same_stream(CUstream a, CUstream b) {
  // The per-thread default stream's handle names a different stream in every thread.
  return a == b && a != CU_STREAM_PER_THREAD;
}

}  // namespace

PlannedPool::PlannedPool(const DriverApi& api, const plan::PoolSection& pool,
                         uint64_t allocations_per_iteration)
    : api_(api), arena_bytes_(pool.arena_bytes) {
  if (arena_bytes_ > 0) {
    const CUresult r = api_.mem_alloc(&arena_, arena_bytes_);
    if (r != CUDA_SUCCESS)
      throw std::runtime_error("the driver refused the arena of " + std::to_string(arena_bytes_) +
                               " bytes (error " + std::to_string(static_cast<int>(r)) + ")");
  }
  slot_of_ordinal_.assign(allocations_per_iteration, kNoSlot);
  slots_.resize(pool.slots.size());
  for (size_t i = 0; i < pool.slots.size(); ++i) {
    const plan::Slot& s = pool.slots[i];
    slots_[i].offset = s.offset;
    slots_[i].bytes = s.bytes;
    if (s.ordinal < slot_of_ordinal_.size()) slot_of_ordinal_[s.ordinal] = static_cast<uint32_t>(i);
  }
  // Which slots share a byte: a sweep over the slots by offset.
  std::vector<uint32_t> by_offset(slots_.size());
  std::iota(by_offset.begin(), by_offset.end(), 0u);
  std::sort(by_offset.begin(), by_offset.end(),
            [&](uint32_t a, uint32_t b) { return slots_[a].offset < slots_[b].offset; });
  for (size_t i = 0; i < by_offset.size(); ++i) {
    SlotState& a = slots_[by_offset[i]];
    a.overlapping.push_back(by_offset[i]);
    for (size_t j = i + 1; j < by_offset.size() && slots_[by_offset[j]].offset < a.offset + a.bytes;
         ++j) {
      a.overlapping.push_back(by_offset[j]);
      slots_[by_offset[j]].overlapping.push_back(by_offset[i]);
    }
  }
}

PlannedPool::~PlannedPool() {
  for (SlotState& slot : slots_) {
    for (const FreeMark& mark : slot.freed_at) api_.event_destroy(mark.event);
  }
  if (arena_ != 0) api_.mem_free(arena_);
}

CUdeviceptr PlannedPool::serve(uint32_t slot_index, uint64_t bytes, std::string_view* miss_reason) {
  SlotState& slot = slots_[slot_index];
  if (bytes != slot.bytes) {
    *miss_reason = bytes > slot.bytes ? "larger than planned" : "smaller than planned";
    return 0;
  }
  for (uint32_t other : slot.overlapping) {
    if (slots_[other].live || slots_[other].blocked) {
      *miss_reason = "planned range still in use";
      return 0;
    }
  }
  slot.must_wait.clear();
  slot.waited.clear();
  for (uint32_t other : slot.overlapping) {
    const std::vector<FreeMark>& marks = slots_[other].freed_at;
    slot.must_wait.insert(slot.must_wait.end(), marks.begin(), marks.end());
  }
  slot.live = true;
  ++live_;
  return arena_ + slot.offset;
}

CUevent PlannedPool::event_for(SlotState& slot, CUstream stream) {
  for (const FreeMark& mark : slot.freed_at) {
    if (mark.stream == stream) return mark.event;
  }
  CUevent event = nullptr;
  if (api_.event_create(&event, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) return nullptr;
  slot.freed_at.push_back({stream, event});
  return event;
}

bool PlannedPool::release(uint32_t slot_index, std::span<const CUstream> streams,
                          std::span<const CUstream> capturing) {
  SlotState& slot = slots_[slot_index];
  slot.live = false;
  --live_;
  bool ordered = true;
  for (CUstream stream : streams) {
    if (std::find(capturing.begin(), capturing.end(), stream) != capturing.end()) {
      slot.blocked = true;  // nothing of ours may go to a capturing stream: never reuse this memory
      continue;
    }
    const CUevent event = event_for(slot, stream);
    if (event == nullptr || api_.event_record(event, stream) != CUDA_SUCCESS) ordered = false;
  }
  // A stream we could not record on (destroyed, or the driver refused): wait for everything. The
  // events stay: later occupants may hold them, and waiting on a finished one costs nothing.
  if (!ordered) api_.ctx_synchronize();
  return ordered;
}

void PlannedPool::release_in_order(uint32_t slot_index) {
  slots_[slot_index].live = false;
  --live_;
}

void PlannedPool::block_free_slots() {
  for (SlotState& slot : slots_) slot.blocked = slot.blocked || !slot.live;
}

void PlannedPool::before_work(uint32_t slot_index, CUstream stream) {
  SlotState& slot = slots_[slot_index];
  if (slot.must_wait.empty()) return;
  for (CUstream done : slot.waited) {
    if (same_stream(done, stream)) return;
  }
  for (const FreeMark& mark : slot.must_wait) {
    // A wait the driver will not queue is made by the host: the new occupant's work must not start
    // before the previous one's has run.
    if (!same_stream(mark.stream, stream) &&
        api_.stream_wait_event(stream, mark.event, 0) != CUDA_SUCCESS &&
        api_.event_synchronize(mark.event) != CUDA_SUCCESS)
      api_.ctx_synchronize();
  }
  slot.waited.push_back(stream);
}

}  // namespace tidepool::runtime::optimize
