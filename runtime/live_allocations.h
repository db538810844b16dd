// The map of live allocations: which allocation (and offset) an address falls in. Hooks add and
// remove entries at allocation and free; launches look every parameter word up, copies their
// ranges. Read-mostly: lookups share a reader lock and take it once per launch (Reader), writers
// hold it exclusively. Entries are a sorted vector (no allocation per lookup, none per insert
// once it has grown).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::runtime {

struct LiveRange {
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t alloc_id = 0;
  uint64_t id_offset = 0;  // offset of `base` inside the allocation (VMM mappings of a physical one)
  uint64_t context = 0;
  int32_t device = 0;
  trace::AllocKind kind = trace::AllocKind::device;
};

// Where an address points: allocation id and offset inside it.
struct Hit {
  uint64_t alloc_id = 0;
  uint64_t offset = 0;
};

class LiveAllocations {
 public:
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
  size_t size() const;

  // Whether an address lies between the lowest live byte and the highest (a quick filter before
  // find, for scanning large host buffers). Racy by design: a stale answer only costs a lookup.
  bool may_contain(uint64_t address) const {
    return address >= low_.load(std::memory_order_relaxed) && address < high_.load(std::memory_order_relaxed);
  }

  // Many lookups under one shared lock (a launch's parameter scan).
  class Reader {
   public:
    explicit Reader(const LiveAllocations& map) : map_(map), lock_(map.mutex_) {}
    std::optional<Hit> find(uint64_t address) const { return map_.find_locked(address); }

   private:
    const LiveAllocations& map_;
    std::shared_lock<std::shared_mutex> lock_;
  };

 private:
  std::optional<Hit> find_locked(uint64_t address) const;

  void update_bounds();

  std::atomic<uint64_t> low_{0}, high_{0};
  mutable std::shared_mutex mutex_;
  std::vector<LiveRange> ranges_;  // sorted by base, disjoint
};

}  // namespace tidepool::runtime
