// Hooks of copies: 1D in every direction, unified, peer, 2D, 3D, batches and prefetches.
#include "intercept/copy_recording.h"
#include "intercept/hook_abi.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {
namespace {

using trace::CopyKind;

// A 1D copy whose direction comes from the pointers (cuMemcpy, cuMemcpyAsync, batches).
trace::Copy unified_copy(uint64_t src, uint64_t dst, uint64_t bytes, bool async) {
  return linear_copy(CopyKind::unified, src, dst, bytes, async);
}

// The payload of a unified copy is scanned when it goes from untracked (pageable host) memory
// into a tracked allocation.
const void* payload_if_h2d(const trace::Copy& c, uint64_t src) {
  return c.src.alloc_id == 0 && c.dst.alloc_id != 0 ? reinterpret_cast<const void*>(src) : nullptr;
}

// One side of a 2D or 3D copy as the descriptor gives it: its memory, where it starts (bytes into
// a row, row, layer), its pitch, and its rows per layer (its own height; 2D copies have one layer).
struct StridedSide {
  CUmemorytype type;
  const void* host;
  CUarray array;
  CUdeviceptr device;
  uint64_t x_bytes, y, z, pitch, layer_rows;
};

// The bytes a side spans for a copy of `depth` layers of `height` rows of `width` bytes.
CopySide strided_side(const StridedSide& s, uint64_t width, uint64_t height, uint64_t depth) {
  const uint64_t base = s.type == CU_MEMORYTYPE_HOST    ? as_u64(s.host)
                        : s.type == CU_MEMORYTYPE_ARRAY ? handle_u64(s.array)
                                                        : s.device;
  const uint64_t start = (s.z * s.layer_rows + s.y) * s.pitch + s.x_bytes;
  const uint64_t span =
      depth == 0 || height == 0 ? 0 : ((depth - 1) * s.layer_rows + (height - 1)) * s.pitch + width;
  return {s.type, base, start, span};
}

template <class Desc>
CopySide src_side_3d(const Desc& d) {
  return strided_side({d.srcMemoryType, d.srcHost, d.srcArray, d.srcDevice, d.srcXInBytes, d.srcY, d.srcZ,
                       d.srcPitch, d.srcHeight == 0 ? d.Height : d.srcHeight},
                      d.WidthInBytes, d.Height, d.Depth);
}

template <class Desc>
CopySide dst_side_3d(const Desc& d) {
  return strided_side({d.dstMemoryType, d.dstHost, d.dstArray, d.dstDevice, d.dstXInBytes, d.dstY, d.dstZ,
                       d.dstPitch, d.dstHeight == 0 ? d.Height : d.dstHeight},
                      d.WidthInBytes, d.Height, d.Depth);
}

CopySide src_side_2d(const CUDA_MEMCPY2D& d) {
  return strided_side({d.srcMemoryType, d.srcHost, d.srcArray, d.srcDevice, d.srcXInBytes, d.srcY, 0, d.srcPitch, 0},
                      d.WidthInBytes, d.Height, 1);
}

CopySide dst_side_2d(const CUDA_MEMCPY2D& d) {
  return strided_side({d.dstMemoryType, d.dstHost, d.dstArray, d.dstDevice, d.dstXInBytes, d.dstY, 0, d.dstPitch, 0},
                      d.WidthInBytes, d.Height, 1);
}

trace::Copy strided_copy(const CopySide& src, const CopySide& dst, uint8_t dims, uint64_t bytes, bool async) {
  trace::Copy c;
  bool src_device = false, dst_device = false;
  c.src = side_range(src, src_device);
  c.dst = side_range(dst, dst_device);
  c.kind = copy_kind(src_device, dst_device,
                     src.type == CU_MEMORYTYPE_ARRAY || dst.type == CU_MEMORYTYPE_ARRAY);
  c.dims = dims;
  c.bytes = bytes;
  c.async = async;
  return c;
}

template <class Desc>
trace::Copy copy_3d(const Desc& d, bool async, bool peer) {
  trace::Copy c = strided_copy(src_side_3d(d), dst_side_3d(d), 3,
                               static_cast<uint64_t>(d.WidthInBytes) * d.Height * d.Depth, async);
  if (peer) c.kind = CopyKind::peer;
  return c;
}

trace::Copy copy_2d(const CUDA_MEMCPY2D& d, bool async) {
  return strided_copy(src_side_2d(d), dst_side_2d(d), 2, static_cast<uint64_t>(d.WidthInBytes) * d.Height, async);
}

// A prefetch reads and writes the same managed range.
trace::Copy prefetch(CUdeviceptr ptr, size_t bytes) {
  trace::Copy c;
  c.kind = CopyKind::prefetch;
  c.src = range_of(ptr, bytes);
  c.dst = c.src;
  c.bytes = bytes;
  c.async = true;
  return c;
}

// Records every copy of a batch (each its own op) after the real call succeeds.
template <class Call>
CUresult record_batch(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUstream stream,
                      Call&& call) {
  runtime::Recorder* rec = recorder();
  if (rec == nullptr || dsts == nullptr || srcs == nullptr || sizes == nullptr) return call();
  struct Batch {};
  const auto lease = runtime::ThreadScratch<std::vector<trace::Copy>, Batch>::get();
  std::vector<trace::Copy>& copies = *lease;
  copies.clear();
  for (size_t i = 0; i < count; ++i) copies.push_back(unified_copy(srcs[i], dsts[i], sizes[i], true));
  for (trace::Copy& c : copies) {
    c.captured = capture_state().capturing(handle_u64(stream));
    if (const CUresult o = optimize_before_transfer(c, stream); o != CUDA_SUCCESS) return o;
  }
  const CUresult r = call();
  optimize_after_work(r == CUDA_SUCCESS);
  if (r != CUDA_SUCCESS) return r;
  const uint64_t s = handle_u64(stream);
  const bool captured = capture_state().capturing(s);
  for (size_t i = 0; i < copies.size(); ++i) {
    trace::Copy& c = copies[i];
    c.op_id = rec->next_op_id();
    c.stream = s;
    c.captured = captured;
    rec->record(c);
    if (const void* payload = payload_if_h2d(c, srcs[i])) record_indirect_refs(*rec, c.op_id, payload, sizes[i], dsts[i]);
  }
  return r;
}

}  // namespace

CUresult on_cuMemcpy(const Real<PFN_cuMemcpy_v4000>& real, CUdeviceptr dst, CUdeviceptr src, size_t n) {
  const trace::Copy c = unified_copy(src, dst, n, false);
  return record_transfer(c, real.effective_stream(nullptr), [&] { return real(dst, src, n); }, payload_if_h2d(c, src), n);
}

CUresult on_cuMemcpyAsync(const Real<PFN_cuMemcpyAsync_v4000>& real, CUdeviceptr dst, CUdeviceptr src, size_t n,
                          CUstream stream) {
  const trace::Copy c = unified_copy(src, dst, n, true);
  return record_transfer(c, real.effective_stream(stream), [&] { return real(dst, src, n, stream); },
                         payload_if_h2d(c, src), n);
}

CUresult on_cuMemcpyPeer(const Real<PFN_cuMemcpyPeer_v4000>& real, CUdeviceptr dst, CUcontext dst_ctx,
                         CUdeviceptr src, CUcontext src_ctx, size_t n) {
  return record_transfer(linear_copy(CopyKind::peer, src, dst, n, false), real.effective_stream(nullptr),
                         [&] { return real(dst, dst_ctx, src, src_ctx, n); });
}

CUresult on_cuMemcpyPeerAsync(const Real<PFN_cuMemcpyPeerAsync_v4000>& real, CUdeviceptr dst, CUcontext dst_ctx,
                              CUdeviceptr src, CUcontext src_ctx, size_t n, CUstream stream) {
  return record_transfer(linear_copy(CopyKind::peer, src, dst, n, true), real.effective_stream(stream),
                         [&] { return real(dst, dst_ctx, src, src_ctx, n, stream); });
}

CUresult on_cuMemcpyHtoD(const Real<PFN_cuMemcpyHtoD_v3020>& real, CUdeviceptr dst, const void* src, size_t n) {
  return record_transfer(linear_copy(CopyKind::host_to_device, as_u64(src), dst, n, false),
                         real.effective_stream(nullptr), [&] { return real(dst, src, n); }, src, n);
}

CUresult on_cuMemcpyDtoH(const Real<PFN_cuMemcpyDtoH_v3020>& real, void* dst, CUdeviceptr src, size_t n) {
  return record_transfer(linear_copy(CopyKind::device_to_host, src, as_u64(dst), n, false),
                         real.effective_stream(nullptr), [&] { return real(dst, src, n); });
}

CUresult on_cuMemcpyDtoD(const Real<PFN_cuMemcpyDtoD_v3020>& real, CUdeviceptr dst, CUdeviceptr src, size_t n) {
  return record_transfer(linear_copy(CopyKind::device_to_device, src, dst, n, false), real.effective_stream(nullptr),
                         [&] { return real(dst, src, n); });
}

CUresult on_cuMemcpyHtoDAsync(const Real<PFN_cuMemcpyHtoDAsync_v3020>& real, CUdeviceptr dst, const void* src,
                              size_t n, CUstream stream) {
  return record_transfer(linear_copy(CopyKind::host_to_device, as_u64(src), dst, n, true),
                         real.effective_stream(stream), [&] { return real(dst, src, n, stream); }, src, n);
}

CUresult on_cuMemcpyDtoHAsync(const Real<PFN_cuMemcpyDtoHAsync_v3020>& real, void* dst, CUdeviceptr src, size_t n,
                              CUstream stream) {
  return record_transfer(linear_copy(CopyKind::device_to_host, src, as_u64(dst), n, true),
                         real.effective_stream(stream), [&] { return real(dst, src, n, stream); });
}

CUresult on_cuMemcpyDtoDAsync(const Real<PFN_cuMemcpyDtoDAsync_v3020>& real, CUdeviceptr dst, CUdeviceptr src,
                              size_t n, CUstream stream) {
  return record_transfer(linear_copy(CopyKind::device_to_device, src, dst, n, true), real.effective_stream(stream),
                         [&] { return real(dst, src, n, stream); });
}

CUresult on_cuMemcpy2D(const Real<PFN_cuMemcpy2D_v3020>& real, const CUDA_MEMCPY2D* d) {
  if (d == nullptr) return real(d);
  return record_transfer(copy_2d(*d, false), real.effective_stream(nullptr), [&] { return real(d); });
}

CUresult on_cuMemcpy2DUnaligned(const Real<PFN_cuMemcpy2DUnaligned_v3020>& real, const CUDA_MEMCPY2D* d) {
  if (d == nullptr) return real(d);
  return record_transfer(copy_2d(*d, false), real.effective_stream(nullptr), [&] { return real(d); });
}

CUresult on_cuMemcpy2DAsync(const Real<PFN_cuMemcpy2DAsync_v3020>& real, const CUDA_MEMCPY2D* d, CUstream stream) {
  if (d == nullptr) return real(d, stream);
  return record_transfer(copy_2d(*d, true), real.effective_stream(stream), [&] { return real(d, stream); });
}

CUresult on_cuMemcpy3D(const Real<PFN_cuMemcpy3D_v3020>& real, const CUDA_MEMCPY3D* d) {
  if (d == nullptr) return real(d);
  return record_transfer(copy_3d(*d, false, false), real.effective_stream(nullptr), [&] { return real(d); });
}

CUresult on_cuMemcpy3DAsync(const Real<PFN_cuMemcpy3DAsync_v3020>& real, const CUDA_MEMCPY3D* d, CUstream stream) {
  if (d == nullptr) return real(d, stream);
  return record_transfer(copy_3d(*d, true, false), real.effective_stream(stream), [&] { return real(d, stream); });
}

CUresult on_cuMemcpy3DPeer(const Real<PFN_cuMemcpy3DPeer_v4000>& real, const CUDA_MEMCPY3D_PEER* d) {
  if (d == nullptr) return real(d);
  return record_transfer(copy_3d(*d, false, true), real.effective_stream(nullptr), [&] { return real(d); });
}

CUresult on_cuMemcpy3DPeerAsync(const Real<PFN_cuMemcpy3DPeerAsync_v4000>& real, const CUDA_MEMCPY3D_PEER* d,
                                CUstream stream) {
  if (d == nullptr) return real(d, stream);
  return record_transfer(copy_3d(*d, true, true), real.effective_stream(stream), [&] { return real(d, stream); });
}

CUresult on_cuMemcpyBatchAsync(const Real<PFN_cuMemcpyBatchAsync_v12080>& real, CUdeviceptr* dsts, CUdeviceptr* srcs,
                               size_t* sizes, size_t count, CUmemcpyAttributes* attrs, size_t* attr_indices,
                               size_t attr_count, size_t* fail_index, CUstream stream) {
  return record_batch(dsts, srcs, sizes, count, real.effective_stream(stream), [&] {
    return real(dsts, srcs, sizes, count, attrs, attr_indices, attr_count, fail_index, stream);
  });
}

CUresult on_cuMemcpyBatchAsync(const Real<PFN_cuMemcpyBatchAsync_v13000>& real, CUdeviceptr* dsts, CUdeviceptr* srcs,
                               size_t* sizes, size_t count, CUmemcpyAttributes* attrs, size_t* attr_indices,
                               size_t attr_count, CUstream stream) {
  return record_batch(dsts, srcs, sizes, count, real.effective_stream(stream), [&] {
    return real(dsts, srcs, sizes, count, attrs, attr_indices, attr_count, stream);
  });
}

CUresult on_cuMemPrefetchAsync(const Real<PFN_cuMemPrefetchAsync_v8000>& real, CUdeviceptr ptr, size_t n,
                               CUdevice device, CUstream stream) {
  return record_transfer(prefetch(ptr, n), real.effective_stream(stream), [&] { return real(ptr, n, device, stream); });
}

CUresult on_cuMemPrefetchAsync(const Real<PFN_cuMemPrefetchAsync_v12020>& real, CUdeviceptr ptr, size_t n,
                               CUmemLocation location, unsigned int flags, CUstream stream) {
  return record_transfer(prefetch(ptr, n), real.effective_stream(stream),
                         [&] { return real(ptr, n, location, flags, stream); });
}

}  // namespace tidepool::intercept
