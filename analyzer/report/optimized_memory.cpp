// The device memory left by the runtime's decisions, event by event.
#include "analyzer/report/optimized_memory.h"

#include <algorithm>
#include <utility>

namespace tidepool::report {
namespace {

// The kinds a program allocates through the calls the runtime serves or swaps.
bool program_buffer(trace::AllocKind kind) {
  return kind == trace::AllocKind::device || kind == trace::AllocKind::device_pitched ||
         kind == trace::AllocKind::stream_ordered || kind == trace::AllocKind::pool;
}

}  // namespace

OptimizedMemoryReplay::OptimizedMemoryReplay(std::unordered_set<uint64_t> pool_hit_ids,
                                             std::unordered_set<uint64_t> deferred_ids)
    : pool_hit_ids_(std::move(pool_hit_ids)), deferred_ids_(std::move(deferred_ids)) {}

uint64_t OptimizedMemoryReplay::live_bytes() const {
  const uint64_t program = requested_.live_device_bytes();
  const uint64_t elsewhere = in_arena_bytes_ + away_bytes_;
  uint64_t arenas = 0;
  for (const Arena& a : arenas_) arenas += a.holds_memory() ? a.bytes : 0;
  return (program > elsewhere ? program - elsewhere : 0) + arenas;
}

void OptimizedMemoryReplay::apply(const trace::Event& event) {
  requested_.apply(event);
  std::visit(
      [&](const auto& r) {
        using R = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<R, trace::Alloc>) {
          on_alloc(r);
        } else if constexpr (std::is_same_v<R, trace::Free>) {
          if (!r.captured) forget(r.alloc_id);  // a captured free is a graph's node
        } else if constexpr (std::is_same_v<R, trace::ContextDestroy>) {
          on_context_destroy(r.context);
        } else if constexpr (std::is_same_v<R, trace::PlanInstalled>) {
          leave_current_arena();
          arenas_.push_back({.bytes = r.arena_bytes});
        } else if constexpr (std::is_same_v<R, trace::ReturnToRecording>) {
          leave_current_arena();
        } else if constexpr (std::is_same_v<R, trace::SwapOut> || std::is_same_v<R, trace::Eviction>) {
          move_out(r.alloc_id, r.bytes);
        } else if constexpr (std::is_same_v<R, trace::SwapIn> || std::is_same_v<R, trace::MappedAtFirstUse>) {
          move_in(r.alloc_id);
        }
      },
      event.record);
  peak_bytes_ = std::max(peak_bytes_, live_bytes());
}

void OptimizedMemoryReplay::on_alloc(const trace::Alloc& a) {
  if (a.captured || !program_buffer(a.kind)) return;  // a captured one is a graph's node
  Allocation& allocation = live_[a.alloc_id] = {.size = a.size, .context = a.context};
  if (deferred_ids_.contains(a.alloc_id)) {  // no memory until its first use
    allocation.bytes_away = a.size;
    away_bytes_ += a.size;
    return;
  }
  if (!pool_hit_ids_.contains(a.alloc_id) || arenas_.empty() || arenas_.back().left) return;
  Arena& arena = arenas_.back();
  arena.serving = true;
  ++arena.live_allocations;
  allocation.arena = arenas_.size() - 1;
  in_arena_bytes_ += a.size;
}

void OptimizedMemoryReplay::forget(uint64_t alloc_id) {
  const auto it = live_.find(alloc_id);
  if (it == live_.end()) return;
  if (it->second.arena != kNoArena) {
    --arenas_[it->second.arena].live_allocations;
    in_arena_bytes_ -= it->second.size;
  }
  away_bytes_ -= it->second.bytes_away;
  live_.erase(it);
}

void OptimizedMemoryReplay::on_context_destroy(uint64_t context) {
  std::vector<uint64_t> ended;
  for (const auto& [id, a] : live_) {
    if (a.context == context) ended.push_back(id);
  }
  for (uint64_t id : ended) forget(id);
}

void OptimizedMemoryReplay::leave_current_arena() {
  if (!arenas_.empty()) arenas_.back().left = true;
}

// A buffer's device memory is gone while it is out; a record's bytes may be rounded up to the
// driver's granularity, but the program's count holds only the requested size.
void OptimizedMemoryReplay::move_out(uint64_t alloc_id, uint64_t bytes) {
  const auto it = live_.find(alloc_id);
  if (it == live_.end() || it->second.arena != kNoArena || it->second.bytes_away > 0) return;
  it->second.bytes_away = std::min(bytes, it->second.size);
  away_bytes_ += it->second.bytes_away;
}

void OptimizedMemoryReplay::move_in(uint64_t alloc_id) {
  const auto it = live_.find(alloc_id);
  if (it == live_.end()) return;
  away_bytes_ -= it->second.bytes_away;
  it->second.bytes_away = 0;
}

}  // namespace tidepool::report
