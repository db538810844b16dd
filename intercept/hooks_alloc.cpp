// Hooks of every way device (and pinned host, managed, imported) memory is obtained or released.
#include "intercept/hook_abi.h"
#include "intercept/hooks_alloc_optimized.h"
#include "intercept/optimize_hooks.h"
#include "intercept/recording.h"

namespace tidepool::intercept {

using trace::AllocKind;

CUresult on_cuMemAlloc(const Real<PFN_cuMemAlloc_v3020>& real, CUdeviceptr* dptr, size_t bytes) {
  if (auto* o = optimizer()) {
    return allocate_optimized(*o, AllocKind::device, dptr, bytes, nullptr, 0, [&] { return real(dptr, bytes); });
  }
  const CUresult r = real(dptr, bytes);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::device, *dptr, bytes);
  }
  return r;
}

CUresult on_cuMemAllocPitch(const Real<PFN_cuMemAllocPitch_v3020>& real, CUdeviceptr* dptr, size_t* pitch,
                            size_t width, size_t height, unsigned int element_bytes) {
  const CUresult r = real(dptr, pitch, width, height, element_bytes);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t id = record_alloc(*rec, AllocKind::device_pitched, *dptr, *pitch * height);
      optimize_allocated_pitched(id, *dptr, *pitch * height);
    }
  }
  return r;
}

CUresult on_cuMemAllocAsync(const Real<PFN_cuMemAllocAsync_v11020>& real, CUdeviceptr* dptr, size_t bytes,
                            CUstream stream) {
  if (auto* o = optimizer()) {
    return allocate_optimized(*o, AllocKind::stream_ordered, dptr, bytes, real.effective_stream(stream), 0,
                              [&] { return real(dptr, bytes, stream); });
  }
  const CUresult r = real(dptr, bytes, stream);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      record_alloc(*rec, AllocKind::stream_ordered, *dptr, bytes, handle_u64(real.effective_stream(stream)));
    }
  }
  return r;
}

CUresult on_cuMemAllocFromPoolAsync(const Real<PFN_cuMemAllocFromPoolAsync_v11020>& real, CUdeviceptr* dptr,
                                    size_t bytes, CUmemoryPool pool, CUstream stream) {
  if (auto* o = optimizer()) {
    return allocate_optimized(*o, AllocKind::pool, dptr, bytes, real.effective_stream(stream), handle_u64(pool),
                              [&] { return real(dptr, bytes, pool, stream); });
  }
  const CUresult r = real(dptr, bytes, pool, stream);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      record_alloc(*rec, AllocKind::pool, *dptr, bytes, handle_u64(real.effective_stream(stream)), handle_u64(pool));
    }
  }
  return r;
}

CUresult on_cuMemFree(const Real<PFN_cuMemFree_v3020>& real, CUdeviceptr dptr) {
  if (auto* o = optimizer()) return optimized_free(*o, dptr, nullptr, false, [&] { return real(dptr); });
  return free_at(recorder(), dptr, 0, [&] { return real(dptr); });
}

CUresult on_cuMemFreeAsync(const Real<PFN_cuMemFreeAsync_v11020>& real, CUdeviceptr dptr, CUstream stream) {
  if (auto* o = optimizer()) {
    return optimized_free(*o, dptr, real.effective_stream(stream), true, [&] { return real(dptr, stream); });
  }
  return free_at(recorder(), dptr, handle_u64(real.effective_stream(stream)), [&] { return real(dptr, stream); });
}

CUresult on_cuMemAllocManaged(const Real<PFN_cuMemAllocManaged_v6000>& real, CUdeviceptr* dptr, size_t bytes,
                              unsigned int flags) {
  const CUresult r = real(dptr, bytes, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::managed, *dptr, bytes);
  }
  return r;
}

CUresult on_cuMemAllocHost(const Real<PFN_cuMemAllocHost_v3020>& real, void** pp, size_t bytes) {
  const CUresult r = real(pp, bytes);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::host_pinned, as_u64(*pp), bytes);
  }
  return r;
}

CUresult on_cuMemHostAlloc(const Real<PFN_cuMemHostAlloc_v2020>& real, void** pp, size_t bytes, unsigned int flags) {
  const CUresult r = real(pp, bytes, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::host_pinned, as_u64(*pp), bytes);
  }
  return r;
}

CUresult on_cuMemFreeHost(const Real<PFN_cuMemFreeHost_v2000>& real, void* p) {
  return free_at(recorder(), as_u64(p), 0, [&] { return real(p); });
}

CUresult on_cuMemHostRegister(const Real<PFN_cuMemHostRegister_v6050>& real, void* p, size_t bytes,
                              unsigned int flags) {
  const CUresult r = real(p, bytes, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::host_registered, as_u64(p), bytes);
  }
  return r;
}

CUresult on_cuMemHostUnregister(const Real<PFN_cuMemHostUnregister_v4000>& real, void* p) {
  return free_at(recorder(), as_u64(p), 0, [&] { return real(p); });
}

// Imported memory: its size is the driver's answer about the range.
CUresult on_cuIpcOpenMemHandle(const Real<PFN_cuIpcOpenMemHandle_v11000>& real, CUdeviceptr* dptr,
                               CUipcMemHandle handle, unsigned int flags) {
  const CUresult r = real(dptr, handle, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::imported, *dptr, imported_size(*dptr));
  }
  return r;
}

CUresult on_cuIpcCloseMemHandle(const Real<PFN_cuIpcCloseMemHandle_v4010>& real, CUdeviceptr dptr) {
  return free_at(recorder(), dptr, 0, [&] { return real(dptr); });
}

CUresult on_cuMemPoolImportPointer(const Real<PFN_cuMemPoolImportPointer_v11020>& real, CUdeviceptr* dptr,
                                   CUmemoryPool pool, CUmemPoolPtrExportData* data) {
  const CUresult r = real(dptr, pool, data);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_alloc(*rec, AllocKind::imported, *dptr, imported_size(*dptr), 0, handle_u64(pool));
  }
  return r;
}

}  // namespace tidepool::intercept
