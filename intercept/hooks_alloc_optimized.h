// The allocation hooks' path through the optimizer. An allocation the planned arena serves is the
// fast path: the controller did its bookkeeping under one lock and gave it its id, and its Alloc
// record goes to the trace together with the PoolHit (one time, one write). Others are recorded as
// the plain hook records them, then handed back to the controller (Controller::allocated).
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdint>

#include "analyzer/trace/format.h"
#include "intercept/optimize_hooks.h"
#include "intercept/real_driver.h"
#include "intercept/recording.h"
#include "runtime/optimize/controller.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {

// The calling thread's current context (nullptr when none), asked of the driver.
inline CUcontext current_context() {
  static const auto get_context = reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(real_driver_symbol("cuCtxGetCurrent"));
  CUcontext context = nullptr;
  if (get_context == nullptr || get_context(&context) != CUDA_SUCCESS) return nullptr;
  return context;
}

// The entry in the map of live allocations of an allocation the arena served (never a captured
// one: its context and device are the arena's), and its Alloc and PoolHit records when `rec` is
// still recording. The entry is made either way: frees find the controller's buffers through it.
inline void record_served_alloc(runtime::Recorder* rec, const runtime::optimize::AllocOutcome& outcome,
                                CUcontext context, trace::AllocKind kind, uint64_t address, uint64_t size,
                                uint64_t stream) {
  state().by_address.add({address, size, outcome.alloc_id, 0, handle_u64(context), outcome.device, kind, true});
  if (rec == nullptr) return;
  // Reused from call to call, as the launch hook's: filled in, not built and destroyed each time.
  struct Records {
    trace::Event alloc{0, 0, 0, trace::Alloc{}};
    trace::Event hit{0, 0, 0, trace::PoolHit{}};
  };
  const auto records = runtime::ThreadScratch<Records>::get();
  trace::Alloc& a = *std::get_if<trace::Alloc>(&records->alloc.record);  // they hold nothing else
  trace::PoolHit& hit = *std::get_if<trace::PoolHit>(&records->hit.record);
  a.alloc_id = outcome.alloc_id;
  a.kind = kind;
  a.address = address;
  a.size = size;
  a.stream = stream;
  a.device = outcome.device;
  a.context = handle_u64(context);
  a.stack_id = allocation_stack(*rec);
  hit.alloc_id = outcome.alloc_id;
  hit.offset = outcome.arena_offset;
  rec->record(records->alloc, records->hit);
}

// An allocation the optimizer may serve: `real` is the driver's call (it writes *dptr). Records
// the Alloc as the plain hook would (stream and pool for the stream-ordered kinds).
template <class Real>
CUresult allocate_optimized(runtime::optimize::Controller& controller, trace::AllocKind kind, CUdeviceptr* dptr,
                            size_t bytes, CUstream stream, uint64_t pool, Real&& real) {
  using Source = runtime::optimize::AllocOutcome::Source;
  const CUcontext context = current_context();
  const runtime::optimize::AllocRequest request{kind, bytes, stream, capture_state().capturing(handle_u64(stream)),
                                                context};
  runtime::optimize::AllocOutcome outcome;
  const CUresult r = controller.allocate(request, dptr, outcome, driver_call(real));
  if (r != CUDA_SUCCESS) return r;
  runtime::Recorder* rec = recorder();
  const bool ordered = kind == trace::AllocKind::stream_ordered || kind == trace::AllocKind::pool;
  const uint64_t on_stream = ordered ? handle_u64(stream) : 0;
  if (outcome.source == Source::arena) {
    record_served_alloc(rec, outcome, context, kind, *dptr, bytes, on_stream);
    return r;
  }
  if (rec == nullptr) return r;
  const uint64_t id = record_alloc(*rec, kind, *dptr, bytes, on_stream, pool, 0, outcome.source != Source::driver);
  controller.allocated(id, *dptr, bytes, outcome);
  return r;
}

}  // namespace tidepool::intercept
