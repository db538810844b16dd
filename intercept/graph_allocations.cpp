// The table of graph allocations by address.
#include "intercept/graph_allocations.h"

namespace tidepool::intercept {

void GraphAllocations::add(uint64_t address, GraphAllocation allocation) {
  const std::lock_guard lock(mutex_);
  by_address_[address] = allocation;
}

std::optional<GraphAllocation> GraphAllocations::take(uint64_t address) {
  const std::lock_guard lock(mutex_);
  const auto it = by_address_.find(address);
  if (it == by_address_.end()) return std::nullopt;
  const GraphAllocation found = it->second;
  by_address_.erase(it);
  return found;
}

GraphAllocations& graph_allocations() {
  static auto* const table = new GraphAllocations;  // never destroyed: hooks may run during exit
  return *table;
}

}  // namespace tidepool::intercept
