// The hooks' side of the optimizer (runtime/optimize): each hook asks it one narrow question at an
// allocation, a free, a launch, a copy or a set. Everything here is a no-op, costing one load,
// when the program is not being optimized.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "analyzer/trace/format.h"
#include "intercept/capture_state.h"
#include "intercept/recording.h"
#include "runtime/optimize/controller.h"

namespace tidepool::intercept {

// The controller; nullptr when not optimizing. Starts the recorder first.
runtime::optimize::Controller* optimizer();

template <class Call>
runtime::optimize::DriverCall driver_call(Call& call) {
  return {[](void* context) -> CUresult { return (*static_cast<Call*>(context))(); }, &call};
}

// An allocation the optimizer may serve: `real` is the driver's call (it writes *dptr). Records
// the Alloc as the plain hook would (stream and pool for the stream-ordered kinds).
template <class Real>
CUresult optimized_alloc(runtime::optimize::Controller& controller, trace::AllocKind kind,
                         CUdeviceptr* dptr, size_t bytes, CUstream stream, uint64_t pool,
                         Real&& real) {
  runtime::optimize::AllocRequest request{kind, bytes, stream,
                                          capture_state().capturing(handle_u64(stream))};
  runtime::optimize::AllocOutcome outcome;
  const CUresult r = controller.allocate(request, dptr, outcome, driver_call(real));
  if (r != CUDA_SUCCESS) return r;
  if (auto* rec = recorder()) {
    const bool ordered = kind == trace::AllocKind::stream_ordered || kind == trace::AllocKind::pool;
    const uint64_t id = record_alloc(*rec, kind, *dptr, bytes, ordered ? handle_u64(stream) : 0, pool, 0,
                                     outcome.source != runtime::optimize::AllocOutcome::Source::driver);
    controller.allocated(id, *dptr, bytes, outcome);
  }
  return r;
}

// A free the optimizer may take back (its arena and swap space); `real` is the driver's call.
template <class Real>
CUresult optimized_free(runtime::optimize::Controller& controller, CUdeviceptr dptr,
                        CUstream stream, bool async, Real&& real) {
  const auto hit = state().by_address.find(dptr);
  const uint64_t id = hit && hit->offset == 0 ? hit->alloc_id : 0;
  return free_at(recorder(), dptr, async ? handle_u64(stream) : 0,
                 [&] { return controller.free(id, dptr, stream, async, driver_call(real)); });
}

// Before the program's launch, copy or set (after its record is filled in, before the real
// call): a failure (a buffer that cannot be brought back) is returned instead of issuing it.
CUresult optimize_before_launch(const trace::Launch& launch, CUfunction function, CUstream stream);
CUresult optimize_before_transfer(const trace::Copy& copy, CUstream stream);
CUresult optimize_before_transfer(const trace::Set& set, CUstream stream);
CUresult optimize_before_graph_launch(CUstream stream);
// After it: `issued` when the real call succeeded.
void optimize_after_work(bool issued);

void optimize_allocated_pitched(uint64_t alloc_id, CUdeviceptr address, uint64_t bytes);
void optimize_keep_resident(uint64_t alloc_id);
void optimize_range_push(std::string_view name);
void optimize_stream_destroyed(CUstream stream);

}  // namespace tidepool::intercept
