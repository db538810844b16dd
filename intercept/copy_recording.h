// Recording copies and sets: the exact ranges they read and write, resolved to allocations, the
// pointers found in host-to-device payloads, and the device timing around the real call.
#pragma once

#include <cuda.h>

#include <vector>

#include "analyzer/trace/format.h"
#include "intercept/capture_state.h"
#include "intercept/device_timing.h"
#include "intercept/optimize_hooks.h"
#include "intercept/param_scan.h"
#include "intercept/recording.h"

namespace tidepool::intercept {

// One side of a copy as the CUDA_MEMCPY2D/3D structures describe it.
struct CopySide {
  CUmemorytype type;
  uint64_t base;   // host pointer, device pointer or CUarray handle
  uint64_t start;  // byte offset of the first byte touched
  uint64_t span;   // bytes from the first to the last byte touched
};

// The range a side covers (arrays resolve through the array table, unified memory through the
// live map); `device` tells whether it is device memory.
trace::Range side_range(const CopySide& side, bool& device);

// The kind of a copy from whether each side is device memory (or an array).
trace::CopyKind copy_kind(bool src_device, bool dst_device, bool any_array);

// Marks every allocation whose address appears in a host buffer copied to the device as
// referenced indirectly. `dst` gives the alignment of device words.
void record_indirect_refs(runtime::Recorder& rec, uint64_t op_id, const void* host, uint64_t bytes, uint64_t dst);

// Copies of one kind and size (sets of one size) are expected to take the same time.
inline uint64_t transfer_kind(const trace::Copy& c) { return (c.bytes << 8) ^ (static_cast<uint64_t>(c.kind) << 1); }
inline uint64_t transfer_kind(const trace::Set& s) { return (s.bytes << 8) ^ 1; }

// Records `op` (a trace::Copy or trace::Set with everything but op id, stream and captured set)
// around the real call; `h2d_payload` (with its byte count) is scanned for pointers on success.
template <class Op, class Call>
CUresult record_transfer(Op op, CUstream stream, Call&& call, const void* h2d_payload = nullptr, uint64_t payload_bytes = 0) {
  runtime::Recorder* rec = recorder();
  if (rec == nullptr) return call();
  op.op_id = rec->next_op_id();
  op.stream = handle_u64(stream);
  op.captured = capture_state().capturing(op.stream);
  if (const CUresult o = optimize_before_transfer(op, stream); o != CUDA_SUCCESS) return o;
  DeviceTimer timer(op.op_id, stream, op.captured, transfer_kind(op));
  const CUresult r = call();
  optimize_after_work(r == CUDA_SUCCESS);
  if (r == CUDA_SUCCESS) {
    rec->record(op);
    timer.finish();
    if (h2d_payload != nullptr) {
      if constexpr (std::is_same_v<Op, trace::Copy>) {
        record_indirect_refs(*rec, op.op_id, h2d_payload, payload_bytes, op.dst.offset);
      }
    }
  }
  return r;
}

// A 1D copy between raw addresses whose kind is known.
trace::Copy linear_copy(trace::CopyKind kind, uint64_t src, uint64_t dst, uint64_t bytes, bool async);

}  // namespace tidepool::intercept
