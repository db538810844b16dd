// The in-process state that hooks and (later) policies share: the live allocations by address
// and by handle. One instance per process, never destroyed (hooks may run during exit).
#pragma once

#include "runtime/handle_allocations.h"
#include "runtime/live_allocations.h"

namespace tidepool::runtime {

struct ProcessState {
  LiveAllocations by_address;        // device, pinned, managed, imported memory and VMM mappings
  HandleAllocations physical;        // cuMemCreate / imported handles
  HandleAllocations arrays;          // CUarray / CUmipmappedArray
  HandleAllocations reservations;    // cuMemAddressReserve, by base address
};

ProcessState& process_state();

}  // namespace tidepool::runtime
