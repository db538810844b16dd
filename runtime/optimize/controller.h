// The online controller: what `tidepool run --optimize` and `--plan` do inside the program. The
// hooks ask it at each allocation, free, launch, copy and set; it answers with the policy in
// force:
//  - recording (no plan yet): allocations pass to the driver, or to the swap space when their
//    size wastes little at its granularity (so that they can be evicted); an allocation that runs
//    out of memory is rescued by evicting idle buffers and retried once. In the background, the
//    trace written so far is planned once its iteration is found and stable;
//  - enforcing a plan from the next iteration boundary (IterationCursor): planned allocations get
//    their arena slots (PlannedPool), planned swaps are issued at their operations, and every
//    launch, copy and set first waits for what it touches (arena reuse, swapped-out buffers);
//  - back to recording when the program keeps straying from the plan (ReturnToRecording).
// Every decision is recorded in the trace. One lock: never held across the program's own driver
// calls (only across the runtime's: the arena, the swap space, the synchronization a free implies).
//
// Swap space sizes: a buffer goes to the swap space when it is at least the granularity and
// rounding it up to the granularity wastes at most 1/16 of it (6.25%); smaller ones use the driver.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <span>
#include <string_view>

#include "analyzer/trace/format.h"

namespace tidepool::runtime::optimize {

class PlannedPool;

// A call into the real driver that the controller may make (or not), without owning a closure.
struct DriverCall {
  CUresult (*call)(void* context) = nullptr;
  void* context = nullptr;
  CUresult operator()() const { return call(context); }
};

struct AllocRequest {
  trace::AllocKind kind = trace::AllocKind::device;  // device, stream_ordered or pool
  uint64_t bytes = 0;
  CUstream stream = nullptr;
  bool captured = false;  // on a capturing stream: passes through, not counted
  CUcontext context = nullptr;  // the calling thread's current context
};

// What allocate() decided, for allocated().
struct AllocOutcome {
  enum class Source : uint8_t { driver, arena, swap_space };
  Source source = Source::driver;
  uint64_t alloc_id = 0;      // arena: the id allocate() took for it from the recorder
  uint64_t arena_offset = 0;  // arena: its planned offset (the PoolHit record's)
  int32_t device = 0;         // arena: the device of the arena's context (the request's)
  bool counted = false;       // part of the event stream
  bool in_iteration = false;  // trusted position in an iteration
  uint64_t ordinal = 0;       // its allocation ordinal there
  uint64_t plan_generation = 0;  // of the plan the ordinal belongs to (plans change meanwhile)
  uint32_t slot = UINT32_MAX;
  PlannedPool* pool = nullptr;       // the arena that served it
  std::string_view miss_reason;      // planned for the arena but served elsewhere
  std::string_view fallback_reason;  // the runtime gave up on its own path for it
};

// A launch, copy or set about to be issued.
struct Work {
  bool launch = false;
  std::string_view kernel;  // launches: the kernel's name ("<graph>" for graph launches)
  CUstream stream = nullptr;
  bool captured = false;
  bool decoded = true;                // false: the accesses are unknown (no layout, graph launch)
  std::span<const uint64_t> touched;  // allocation ids it reads or writes
  uint64_t only_read = 0;             // one of them it only reads (a copy's source), or 0
};

class Controller {
 public:
  // The process's controller, created on first use; nullptr when not optimizing (settings,
  // TIDEPOOL_DISABLE, no trace being recorded, or the driver lacks what the runtime needs).
  // `lookup` finds the real driver's functions; `capturing` tells whether a stream is capturing.
  static Controller* get(void* (*lookup)(const char* symbol), bool (*capturing)(CUstream stream));

  // Serves an allocation (the arena, the swap space or `driver`, which writes *address). The
  // fast path: when the arena serves it, allocate() also takes its id from the recorder and does
  // all of its bookkeeping under the one lock; the caller then writes its Alloc record (id
  // outcome.alloc_id) together with PoolHit{alloc_id, arena_offset}, and need not call allocated().
  CUresult allocate(const AllocRequest& request, CUdeviceptr* address, AllocOutcome& outcome,
                    DriverCall driver);
  // After allocate() succeeded and the Alloc record (id alloc_id) was written (nothing left to do
  // for the arena's).
  void allocated(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes,
                 const AllocOutcome& outcome);
  // A pitched allocation the driver made (counted, never served by the runtime).
  void allocated_pitched(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes);

  // Frees allocation alloc_id at `address` (ours go back to the arena or the swap space; others
  // through `driver`). `async`: cuMemFreeAsync on `stream`.
  CUresult free(uint64_t alloc_id, CUdeviceptr address, CUstream stream, bool async,
                DriverCall driver);

  // Before and after the program's launch, copy or set. A failure from before_work (a buffer
  // could not be brought back) is returned to the program instead of issuing the work.
  CUresult before_work(const Work& work);
  void after_work(bool issued);

  // The allocation must never move (referenced indirectly, address queried or exported).
  void keep_resident(uint64_t alloc_id);
  // An NVTX range push (an iteration boundary for plans delimited by NVTX ranges).
  void range_push(std::string_view name);
  // The program is about to destroy `stream`.
  void stream_destroyed(CUstream stream);

  class State;  // controller_state.h: for the controller's own files

 private:
  Controller() = default;
  State* state_ = nullptr;  // never freed: hooks may run during exit
};

}  // namespace tidepool::runtime::optimize
