// The cuMemcpy* entry points (synchronous, asynchronous, per-thread-stream forms).
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/copy_location.h"
#include "tools/simcuda/src/transfer.h"

using namespace simcuda;

namespace {

uint64_t address(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

SIMCUDA_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return guard([&] { return copy(dst, src, ByteCount, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return guard([&] { return copy(dst, src, ByteCount, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return guard([&] { return copy(dst, src, ByteCount, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return guard([&] { return copy(dst, src, ByteCount, hStream, true, false); });
}

SIMCUDA_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return guard([&] { return copy(dstDevice, address(srcHost), ByteCount, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount) {
  return guard([&] { return copy(dstDevice, address(srcHost), ByteCount, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return guard([&] { return copy(address(dstHost), srcDevice, ByteCount, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpyDtoH_v2_ptds(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return guard([&] { return copy(address(dstHost), srcDevice, ByteCount, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return guard([&] { return copy(dstDevice, srcDevice, ByteCount, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return guard([&] { return copy(dstDevice, srcDevice, ByteCount, nullptr, true, true); });
}

SIMCUDA_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount, CUstream hStream) {
  return guard([&] { return copy(dstDevice, address(srcHost), ByteCount, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount,
                                               CUstream hStream) {
  return guard([&] { return copy(dstDevice, address(srcHost), ByteCount, hStream, true, false); });
}
SIMCUDA_API CUresult cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return guard([&] { return copy(address(dstHost), srcDevice, ByteCount, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                               CUstream hStream) {
  return guard([&] { return copy(address(dstHost), srcDevice, ByteCount, hStream, true, false); });
}
SIMCUDA_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                          CUstream hStream) {
  return guard([&] { return copy(dstDevice, srcDevice, ByteCount, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount,
                                               CUstream hStream) {
  return guard([&] { return copy(dstDevice, srcDevice, ByteCount, hStream, true, false); });
}

namespace {

// The addresses of a CUDA_MEMCPY2D.
CUresult copy_2d(const CUDA_MEMCPY2D* p, CUstream stream, bool per_thread, bool sync) {
  if (p == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const CopySide dst{p->dstMemoryType, p->dstHost, p->dstDevice, p->dstArray, p->dstXInBytes, p->dstY, 0, p->dstPitch, 0};
  const CopySide src{p->srcMemoryType, p->srcHost, p->srcDevice, p->srcArray, p->srcXInBytes, p->srcY, 0, p->srcPitch, 0};
  CopyStart to, from;
  if (const CUresult r = locate(dst, p->WidthInBytes, p->Height, 1, to); r != CUDA_SUCCESS) return r;
  if (const CUresult r = locate(src, p->WidthInBytes, p->Height, 1, from); r != CUDA_SUCCESS) return r;
  Rows rows{to.address, to.pitch, from.address, from.pitch, p->WidthInBytes, p->Height};
  if (rows.height == 1) rows.dst_pitch = rows.src_pitch = rows.width;
  return copy_rows(rows, stream, per_thread, sync);
}

}  // namespace

SIMCUDA_API CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy) {
  return guard([&] { return copy_2d(pCopy, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return guard([&] { return copy_2d(pCopy, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy) {
  return guard([&] { return copy_2d(pCopy, nullptr, false, true); });
}
SIMCUDA_API CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D* pCopy) {
  return guard([&] { return copy_2d(pCopy, nullptr, true, true); });
}
SIMCUDA_API CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return guard([&] { return copy_2d(pCopy, hStream, false, false); });
}
SIMCUDA_API CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D* pCopy, CUstream hStream) {
  return guard([&] { return copy_2d(pCopy, hStream, true, false); });
}
