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

// Allocations the optimizer may serve: intercept/hooks_alloc_optimized.h.

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
