// The allocations of one iteration and their lifetimes: each allocation made inside the iteration
// is identified by its ordinal among them; those freed inside it have a half-open lifetime
// [alloc position, free position) relative to the iteration's first event, the rest outlive the
// iteration and are persistent.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration {

struct IterationAllocation {
  std::size_t ordinal = 0;   // index among the allocations made in the iteration
  std::uint64_t bytes = 0;
  std::size_t begin = 0;     // position of the allocation, relative to the iteration's start
  std::size_t end = 0;       // position of the free; the iteration's length when persistent
  bool persistent = false;   // not freed within the iteration
};

struct IterationLifetimes {
  Range iteration;
  std::vector<IterationAllocation> allocations;  // in allocation order
  std::uint64_t live_at_start_bytes = 0;  // allocated before the iteration and live at its start
                                          // (weights, optimizer state, buffers from the one before)
  std::uint64_t peak_bytes = 0;           // observed: most bytes live at once during the iteration,
                                          // everything included

  std::uint64_t persistent_bytes() const;  // allocated inside and outliving the iteration
};

// Throws std::runtime_error when the stream frees an allocation it never made, or makes one twice.
IterationLifetimes lifetimes(const EventStream& stream, Range iteration);

}  // namespace tidepool::iteration
