// cuStreamWaitValue32/64, cuStreamWriteValue32/64 and cuStreamBatchMemOp, in every ABI version
// and _ptsz form (the versions behave alike; memory barriers are accepted by the _v2 batch only).
#include <cstring>
#include <span>
#include <vector>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/stream_memop.h"

using namespace simcuda;

namespace {

CUresult single(CUstream handle, bool per_thread, const MemOp& op) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = check_mem_op(op); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  enqueue_mem_op(*stream, op);
  return CUDA_SUCCESS;
}

// The operations of a batch, checked before any is queued; barriers and flushes order nothing
// more than stream order already does, so they queue nothing.
CUresult batch(CUstream handle, bool per_thread, unsigned count, const CUstreamBatchMemOpParams* params,
               unsigned flags, bool v2) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (flags != 0 || count == 0 || params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  std::vector<MemOp> ops;
  for (const CUstreamBatchMemOpParams& p : std::span(params, count)) {
    int operation = 0;  // read as the integer the caller stored: it may be no valid enumerator
    std::memcpy(&operation, &p.operation, sizeof operation);
    switch (operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
      case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
        const bool wide = operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
        ops.push_back({true, wide, p.waitValue.address, wide ? p.waitValue.value64 : p.waitValue.value,
                       p.waitValue.flags});
        break;
      }
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
      case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
        const bool wide = operation == CU_STREAM_MEM_OP_WRITE_VALUE_64;
        ops.push_back({false, wide, p.writeValue.address, wide ? p.writeValue.value64 : p.writeValue.value,
                       p.writeValue.flags});
        break;
      }
      case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        if (p.flushRemoteWrites.flags != 0) return CUDA_ERROR_INVALID_VALUE;
        continue;
      case CU_STREAM_MEM_OP_BARRIER:
        if (!v2 || p.memoryBarrier.flags > CU_STREAM_MEMORY_BARRIER_TYPE_GPU) return CUDA_ERROR_INVALID_VALUE;
        continue;
      default: return CUDA_ERROR_INVALID_VALUE;
    }
    if (const CUresult r = check_mem_op(ops.back()); r != CUDA_SUCCESS) return r;
  }
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  for (const MemOp& op : ops) enqueue_mem_op(*stream, op);
  return CUDA_SUCCESS;
}

}  // namespace

#define SIMCUDA_MEMOP(name, wait, wide, type)                                                          \
  SIMCUDA_API CUresult name(CUstream s, CUdeviceptr addr, type value, unsigned int flags) {            \
    return guard([&] { return single(s, false, {wait, wide, addr, value, flags}); });                 \
  }                                                                                                    \
  SIMCUDA_API CUresult name##_ptsz(CUstream s, CUdeviceptr addr, type value, unsigned int flags) {     \
    return guard([&] { return single(s, true, {wait, wide, addr, value, flags}); });                  \
  }                                                                                                    \
  SIMCUDA_API CUresult name##_v2(CUstream s, CUdeviceptr addr, type value, unsigned int flags) {       \
    return guard([&] { return single(s, false, {wait, wide, addr, value, flags}); });                 \
  }                                                                                                    \
  SIMCUDA_API CUresult name##_v2_ptsz(CUstream s, CUdeviceptr addr, type value, unsigned int flags) {  \
    return guard([&] { return single(s, true, {wait, wide, addr, value, flags}); });                  \
  }

SIMCUDA_MEMOP(cuStreamWaitValue32, true, false, cuuint32_t)
SIMCUDA_MEMOP(cuStreamWaitValue64, true, true, cuuint64_t)
SIMCUDA_MEMOP(cuStreamWriteValue32, false, false, cuuint32_t)
SIMCUDA_MEMOP(cuStreamWriteValue64, false, true, cuuint64_t)

SIMCUDA_API CUresult cuStreamBatchMemOp(CUstream s, unsigned int count, CUstreamBatchMemOpParams* params,
                                        unsigned int flags) {
  return guard([&] { return batch(s, false, count, params, flags, false); });
}
SIMCUDA_API CUresult cuStreamBatchMemOp_ptsz(CUstream s, unsigned int count, CUstreamBatchMemOpParams* params,
                                             unsigned int flags) {
  return guard([&] { return batch(s, true, count, params, flags, false); });
}
SIMCUDA_API CUresult cuStreamBatchMemOp_v2(CUstream s, unsigned int count, CUstreamBatchMemOpParams* params,
                                           unsigned int flags) {
  return guard([&] { return batch(s, false, count, params, flags, true); });
}
SIMCUDA_API CUresult cuStreamBatchMemOp_v2_ptsz(CUstream s, unsigned int count, CUstreamBatchMemOpParams* params,
                                                unsigned int flags) {
  return guard([&] { return batch(s, true, count, params, flags, true); });
}
