// cuMemcpy3D, cuMemcpy3DAsync, cuMemcpy3DPeer(Async), cuMemcpyPeer(Async), with their
// _ptds/_ptsz forms. There is one device, so a peer copy is a copy within it (both contexts
// must be live).
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/copy_location.h"
#include "tools/simcuda/src/transfer.h"

using namespace simcuda;

namespace {

template <class Desc>
CUresult copy_3d(const Desc* p, CUstream stream, bool per_thread, bool sync) {
  if (p == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (p->srcLOD != 0 || p->dstLOD != 0) return CUDA_ERROR_INVALID_VALUE;
  const CopySide dst{p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
                     p->dstPitch, p->dstHeight};
  const CopySide src{p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
                     p->srcPitch, p->srcHeight};
  CopyStart to, from;
  if (const CUresult r = locate(dst, p->WidthInBytes, p->Height, p->Depth, to); r != CUDA_SUCCESS) return r;
  if (const CUresult r = locate(src, p->WidthInBytes, p->Height, p->Depth, from); r != CUDA_SUCCESS) return r;
  Rows rows{to.address, to.pitch, from.address, from.pitch, p->WidthInBytes, p->Height, p->Depth, to.slice, from.slice};
  if (rows.height == 1) rows.dst_pitch = rows.src_pitch = rows.width;
  if (rows.depth == 1) rows.dst_slice = rows.src_slice = 0;
  return copy_rows(rows, stream, per_thread, sync);
}

CUresult peer_3d(const CUDA_MEMCPY3D_PEER* p, CUstream stream, bool per_thread, bool sync) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (p == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (find_context(p->srcContext) == nullptr || find_context(p->dstContext) == nullptr)
    return CUDA_ERROR_INVALID_CONTEXT;
  return copy_3d(p, stream, per_thread, sync);
}

CUresult peer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx, size_t bytes, CUstream stream,
              bool per_thread, bool sync) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (find_context(src_ctx) == nullptr || find_context(dst_ctx) == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
  return copy(dst, src, bytes, stream, per_thread, sync);
}

}  // namespace

SIMCUDA_API CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy) {
  return guard([&] { return copy_3d(pCopy, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D* pCopy) {
  return guard([&] { return copy_3d(pCopy, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return guard([&] { return copy_3d(pCopy, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D* pCopy, CUstream hStream) {
  return guard([&] { return copy_3d(pCopy, hStream, true, false); });
}

SIMCUDA_API CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER* pCopy) {
  return guard([&] { return peer_3d(pCopy, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER* pCopy) {
  return guard([&] { return peer_3d(pCopy, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* pCopy, CUstream hStream) {
  return guard([&] { return peer_3d(pCopy, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER* pCopy, CUstream hStream) {
  return guard([&] { return peer_3d(pCopy, hStream, true, false); });
}

SIMCUDA_API CUresult cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                  CUcontext srcContext, size_t ByteCount) {
  return guard([&] { return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpyPeer_ptds(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                       CUcontext srcContext, size_t ByteCount) {
  return guard([&] { return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpyPeerAsync(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                       CUcontext srcContext, size_t ByteCount, CUstream hStream) {
  return guard([&] { return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice,
                                            CUcontext srcContext, size_t ByteCount, CUstream hStream) {
  return guard([&] { return peer(dstDevice, dstContext, srcDevice, srcContext, ByteCount, hStream, true, false); });
}
