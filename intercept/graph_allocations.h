// Allocations made on a capturing stream: memory nodes of the graph being captured, not memory
// now. Their addresses stay out of the live allocation map (nothing touches them until a graph
// runs), and are kept here so that a free node releasing one (a stream-ordered free on a
// capturing stream) names the allocation it frees.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "analyzer/trace/format.h"

namespace tidepool::intercept {

struct GraphAllocation {
  uint64_t alloc_id = 0;
  trace::AllocKind kind = trace::AllocKind::stream_ordered;
};

class GraphAllocations {
 public:
  // A graph allocation at `address` (a newer one at the same address replaces it).
  void add(uint64_t address, GraphAllocation allocation);
  // Removes and returns the graph allocation at `address`, if any.
  std::optional<GraphAllocation> take(uint64_t address);

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, GraphAllocation> by_address_;
};

GraphAllocations& graph_allocations();

}  // namespace tidepool::intercept
