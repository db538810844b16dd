// cuMemcpyBatchAsync (both ABI versions, _ptsz forms): each copy is queued on the stream as
// cuMemcpyAsync would queue it. Copies whose attribute says the source is read during the call
// (CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL) are done before the call returns.
#include <cstdint>
#include <span>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/transfer.h"

using namespace simcuda;

namespace {

CUresult batch(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUmemcpyAttributes* attrs,
               size_t* attr_idxs, size_t num_attrs, size_t* fail_idx, CUstream handle, bool per_thread) {
  if (fail_idx != nullptr) *fail_idx = SIZE_MAX;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (stream->kind == StreamKind::legacy) return CUDA_ERROR_INVALID_VALUE;  // the legacy stream is not allowed
  if (dsts == nullptr || srcs == nullptr || sizes == nullptr || count == 0 || attrs == nullptr ||
      attr_idxs == nullptr || num_attrs == 0 || num_attrs > count || attr_idxs[0] != 0)
    return CUDA_ERROR_INVALID_VALUE;
  const std::span<const size_t> firsts(attr_idxs, num_attrs);
  for (size_t k = 0; k < num_attrs; ++k) {
    if (k > 0 && firsts[k] <= firsts[k - 1]) return CUDA_ERROR_INVALID_VALUE;
    if (firsts[k] >= count) return CUDA_ERROR_INVALID_VALUE;
    const CUmemcpySrcAccessOrder order = attrs[k].srcAccessOrder;
    if (order != CU_MEMCPY_SRC_ACCESS_ORDER_STREAM && order != CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL &&
        order != CU_MEMCPY_SRC_ACCESS_ORDER_ANY)
      return CUDA_ERROR_INVALID_VALUE;
  }
  size_t attr = 0;
  for (size_t i = 0; i < count; ++i) {
    if (attr + 1 < num_attrs && firsts[attr + 1] == i) ++attr;
    const bool now = attrs[attr].srcAccessOrder == CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
    if (const CUresult r = copy(dsts[i], srcs[i], sizes[i], handle, per_thread, now); r != CUDA_SUCCESS) {
      if (fail_idx != nullptr) *fail_idx = i;
      return r;
    }
  }
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuMemcpyBatchAsync(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                        CUmemcpyAttributes* attrs, size_t* attrIdxs, size_t numAttrs,
                                        size_t* failIdx, CUstream hStream) {
  return guard([&] { return batch(dsts, srcs, sizes, count, attrs, attrIdxs, numAttrs, failIdx, hStream, false); });
}
SIMCUDA_API CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                             CUmemcpyAttributes* attrs, size_t* attrIdxs, size_t numAttrs,
                                             size_t* failIdx, CUstream hStream) {
  return guard([&] { return batch(dsts, srcs, sizes, count, attrs, attrIdxs, numAttrs, failIdx, hStream, true); });
}
SIMCUDA_API CUresult cuMemcpyBatchAsync_v2(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                           CUmemcpyAttributes* attrs, size_t* attrIdxs, size_t numAttrs,
                                           CUstream hStream) {
  return guard([&] { return batch(dsts, srcs, sizes, count, attrs, attrIdxs, numAttrs, nullptr, hStream, false); });
}
SIMCUDA_API CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count,
                                                CUmemcpyAttributes* attrs, size_t* attrIdxs, size_t numAttrs,
                                                CUstream hStream) {
  return guard([&] { return batch(dsts, srcs, sizes, count, attrs, attrIdxs, numAttrs, nullptr, hStream, true); });
}
