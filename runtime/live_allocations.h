// The map of live allocations: which allocation (and offset) an address falls in. Hooks add and
// remove entries at allocation and free; launches look every parameter word up, copies their
// ranges. Read-mostly: writers hold a lock exclusively and advance a generation; a Reader (one
// launch's scan) first asks a small per-thread cache of answers given at the current generation,
// and only on a miss takes the shared lock (once per Reader) and searches. A program that launches
// the same kernels on the same buffers between allocations therefore scans without any lock.
// Entries are a sorted vector (no allocation per lookup, none per insert once it has grown).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "analyzer/trace/format.h"
#include "runtime/spin_shared_mutex.h"

namespace tidepool::runtime {

struct LiveRange {
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t alloc_id = 0;
  uint64_t id_offset = 0;  // offset of `base` inside the allocation (VMM mappings of a physical one)
  uint64_t context = 0;
  int32_t device = 0;
  trace::AllocKind kind = trace::AllocKind::device;
  // Served by tidepool's runtime (its arena or swap space), not by a driver allocation of its
  // own: the driver would describe the arena or the reservation, not this allocation.
  bool served_by_runtime = false;
};

// Where an address points: allocation id and offset inside it.
struct Hit {
  uint64_t alloc_id = 0;
  uint64_t offset = 0;
};

class LiveAllocations;

namespace live_allocations_detail {
// One thread's recent answers, direct-mapped by address. An entry answers only for the map and
// generation it was found at; generation 0 never occurs, so empty entries never answer.
struct CachedAnswer {
  const LiveAllocations* map = nullptr;
  uint64_t generation = 0;
  uint64_t address = 0;
  std::optional<Hit> hit;
};

inline CachedAnswer& cache_slot(uint64_t address) {
  thread_local std::array<CachedAnswer, 64> cache;
  // Fibonacci hashing (the top 6 bits): buffers a power of two apart land in different slots.
  return cache[(address * 0x9E3779B97F4A7C15ull) >> 58];
}
}  // namespace live_allocations_detail

class LiveAllocations {
 public:
  LiveAllocations();
  // Adds [base, base + size); a range overlapping live ones replaces them (the driver reused the
  // address, so they are gone).
  void add(const LiveRange& range);
  // Removes the range starting exactly at base; returns it.
  std::optional<LiveRange> remove(uint64_t base);
  // Removes every range of a context (its destruction freed them); returns how many.
  size_t remove_context(uint64_t context);
  // Removes every range inside [base, base + size) (VMM unmap).
  void remove_within(uint64_t base, uint64_t size);
  std::optional<Hit> find(uint64_t address) const;
  // The whole range holding the address.
  std::optional<LiveRange> find_range(uint64_t address) const;
  size_t size() const;

  // Whether an address lies between the lowest live byte and the highest (a quick filter before
  // find, for scanning large host buffers). Racy by design: a stale answer only costs a lookup.
  bool may_contain(uint64_t address) const {
    return address >= low_.load(std::memory_order_relaxed) && address < high_.load(std::memory_order_relaxed);
  }

  // Many lookups as of one generation of the map (a launch's parameter scan): answers come from
  // the thread's cache, or under one shared lock taken at the first miss.
  class Reader {
   public:
    explicit Reader(const LiveAllocations& map)
        : map_(map), generation_(map.generation_.load(std::memory_order_acquire)), lock_(map.mutex_, std::defer_lock) {}
    std::optional<Hit> find(uint64_t address) {
      auto& slot = live_allocations_detail::cache_slot(address);
      if (slot.address == address && slot.generation == generation_ && slot.map == &map_) return slot.hit;
      return find_and_cache(slot, address);
    }

   private:
    std::optional<Hit> find_and_cache(live_allocations_detail::CachedAnswer& slot, uint64_t address);

    const LiveAllocations& map_;
    uint64_t generation_;
    std::shared_lock<SpinSharedMutex> lock_;
  };

 private:
  std::optional<Hit> find_locked(uint64_t address) const;
  const LiveRange* range_holding(uint64_t address) const;  // caller holds the lock

  void changed();  // caller holds the lock exclusively

  std::atomic<uint64_t> generation_;  // unique across maps: a cached answer names one map's state
  std::atomic<uint64_t> low_{0}, high_{0};
  mutable SpinSharedMutex mutex_;
  std::vector<LiveRange> ranges_;  // sorted by base, disjoint
};

}  // namespace tidepool::runtime
