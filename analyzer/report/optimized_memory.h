// Replays a trace's device memory as tidepool's runtime left it: the program's live device
// allocations (counted as memory_replay.h counts them), less those an arena served (pool hits)
// and those swapped out or evicted to host memory until they are swapped back in, plus the
// arenas. An arena (PlanInstalled's arena_bytes) counts from the first allocation it serves until
// its plan is left (ReturnToRecording, or the next PlanInstalled) and the last allocation it
// served is freed. A buffer whose mapping was deferred (MapDeferred) counts from its first use
// (MappedAtFirstUse).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/report/memory_replay.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

class OptimizedMemoryReplay {
 public:
  // `pool_hit_ids`: every allocation the trace says an arena served; `deferred_ids`: those whose
  // mapping was deferred (a PoolHit or MapDeferred follows its Alloc, so they are gathered before
  // the replay, to never count them first as driver memory).
  OptimizedMemoryReplay(std::unordered_set<uint64_t> pool_hit_ids, std::unordered_set<uint64_t> deferred_ids);

  void apply(const trace::Event& event);

  uint64_t live_bytes() const;
  uint64_t peak_bytes() const { return peak_bytes_; }
  uint64_t requested_peak_bytes() const { return requested_.peak_device_bytes(); }

 private:
  static constexpr size_t kNoArena = SIZE_MAX;
  struct Arena {
    uint64_t bytes = 0;
    uint64_t live_allocations = 0;  // served by it and not yet freed
    bool serving = false;           // it has served an allocation: its memory exists
    bool left = false;              // its plan was left
    bool holds_memory() const { return serving && (!left || live_allocations > 0); }
  };
  struct Allocation {
    uint64_t size = 0;
    uint64_t context = 0;
    size_t arena = kNoArena;  // the arena that served it
    uint64_t bytes_away = 0;  // swapped out or evicted, not yet back
  };

  void on_alloc(const trace::Alloc& a);
  void on_context_destroy(uint64_t context);
  void forget(uint64_t alloc_id);
  void leave_current_arena();
  void move_out(uint64_t alloc_id, uint64_t bytes);
  void move_in(uint64_t alloc_id);

  MemoryReplay requested_;
  std::unordered_set<uint64_t> pool_hit_ids_;
  std::unordered_set<uint64_t> deferred_ids_;
  std::unordered_map<uint64_t, Allocation> live_;  // the program's device buffers
  std::vector<Arena> arenas_;                     // in plan order; the last one is current unless left
  uint64_t in_arena_bytes_ = 0;
  uint64_t away_bytes_ = 0;
  uint64_t peak_bytes_ = 0;
};

}  // namespace tidepool::report
