// The handle-keyed allocation table.
#include "runtime/handle_allocations.h"

namespace tidepool::runtime {

void HandleAllocations::add(uint64_t handle, const HandleEntry& entry) {
  const std::lock_guard lock(mutex_);
  entries_[handle] = entry;
}

std::optional<HandleEntry> HandleAllocations::find(uint64_t handle) const {
  const std::lock_guard lock(mutex_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

std::optional<HandleEntry> HandleAllocations::remove(uint64_t handle) {
  const std::lock_guard lock(mutex_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) return std::nullopt;
  HandleEntry entry = it->second;
  entries_.erase(it);
  return entry;
}

void HandleAllocations::remove_context(uint64_t context) {
  const std::lock_guard lock(mutex_);
  std::erase_if(entries_, [&](const auto& e) { return e.second.context == context; });
}

}  // namespace tidepool::runtime
