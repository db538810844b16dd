// What hooks share to record: the recorder, where the calling thread's work goes (context and
// device), call stacks, and how an address range maps to an allocation.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "analyzer/trace/format.h"
#include "intercept/capture_state.h"
#include "intercept/graph_allocations.h"
#include "runtime/process_state.h"
#include "runtime/recorder.h"

namespace tidepool::intercept {

// The recorder, started at the first event; nullptr when not recording.
runtime::Recorder* recorder();

inline runtime::ProcessState& state() { return runtime::process_state(); }

inline uint64_t as_u64(const void* p) { return reinterpret_cast<uint64_t>(p); }
template <class Handle>
uint64_t handle_u64(Handle h) {
  return reinterpret_cast<uint64_t>(h);
}

struct Placement {
  uint64_t context = 0;
  int32_t device = 0;
};
// The calling thread's current context and its device.
Placement current_placement();

// The call stack of the calling program (0 when stacks are off).
uint32_t allocation_stack(runtime::Recorder& rec);

// An exact range: the allocation holding `address` and the offset in it, or the raw address.
trace::Range range_of(uint64_t address, uint64_t bytes);

// The size of the allocation at `address` as the driver sees it (imported memory), 0 if unknown.
uint64_t imported_size(CUdeviceptr address);

// A new Alloc record placed at `where`: a fresh id and the calling program's call stack.
trace::Alloc make_alloc(runtime::Recorder& rec, trace::AllocKind kind, uint64_t address, uint64_t size,
                        const Placement& where);

// Records a new allocation (and makes address-backed ones findable); returns its id. One made
// on a capturing `stream` is recorded as captured: a graph's memory node, kept out of the live map.
// `served_by_runtime`: the optimizer served it from its arena or swap space.
uint64_t record_alloc(runtime::Recorder& rec, trace::AllocKind kind, uint64_t address, uint64_t size,
                      uint64_t stream = 0, uint64_t pool = 0, uint64_t handle = 0, bool served_by_runtime = false);

// Frees the graph allocation at `address` (a free node: the call is on a capturing stream)
// around the real call `release`; the captured Free is recorded when it succeeds.
template <class Release>
CUresult free_graph_allocation(runtime::Recorder& rec, uint64_t address, const GraphAllocation& allocation,
                               uint64_t stream, Release&& release) {
  const CUresult result = release();
  if (result == CUDA_SUCCESS) {
    rec.record(trace::Free{allocation.alloc_id, allocation.kind, stream, true});
  } else {
    graph_allocations().add(address, allocation);
  }
  return result;
}

// Frees the live allocation at `address` around the real call `release` (a callable returning
// CUresult): the entry leaves the map before the driver can hand the address out again, comes
// back if the call fails, and the Free is recorded when it succeeds. On a capturing `stream`, a
// graph allocation is freed instead.
template <class Release>
CUresult free_at(runtime::Recorder* rec, uint64_t address, uint64_t stream, Release&& release) {
  if (rec != nullptr && capture_state().capturing(stream)) {
    if (const auto node = graph_allocations().take(address)) return free_graph_allocation(*rec, address, *node, stream, release);
  }
  const auto gone = rec != nullptr ? state().by_address.remove(address) : std::nullopt;
  const CUresult result = release();
  if (gone) {
    if (result == CUDA_SUCCESS) {
      rec->record(trace::Free{gone->alloc_id, gone->kind, stream});
    } else {
      state().by_address.add(*gone);
    }
  }
  return result;
}

}  // namespace tidepool::intercept
