// The registry of live heap allocations (see allocations.h).
#include "tools/simcuda/src/allocations.h"

#include <map>
#include <mutex>

namespace simcuda {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, Allocation> live;
  uint64_t next_id = 1;
};

Registry& registry() {
  static Registry& instance = *new Registry;
  return instance;
}

}  // namespace

Allocation add_allocation(uint64_t base, uint64_t requested, MemoryPool* pool) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const Allocation a{base, requested, r.next_id++, pool};
  r.live[base] = a;
  return a;
}

std::optional<Allocation> take_allocation(uint64_t base) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  const auto it = r.live.find(base);
  if (it == r.live.end()) return std::nullopt;
  const Allocation a = it->second;
  r.live.erase(it);
  return a;
}

std::optional<Allocation> find_allocation(uint64_t address) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto it = r.live.upper_bound(address);
  if (it == r.live.begin()) return std::nullopt;
  --it;
  if (address - it->second.base >= it->second.requested) return std::nullopt;
  return it->second;
}

}  // namespace simcuda
