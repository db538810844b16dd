// The stream-ordered allocation entry points: cuMemAllocAsync, cuMemFreeAsync,
// cuMemAllocFromPoolAsync (with _ptsz forms) and the cuMemPool*/cuDevice*MemPool functions.
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/mempool.h"

using namespace simcuda;

namespace {

CUresult alloc_async(CUdeviceptr* dptr, size_t bytes, MemoryPool* pool, CUstream stream, bool per_thread) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  if (dptr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return pool_allocate(pool, bytes, stream, per_thread, *dptr);
}

CUresult alloc_from(CUdeviceptr* dptr, size_t bytes, CUmemoryPool handle, CUstream stream, bool per_thread) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  MemoryPool* pool = find_pool(handle);
  return pool == nullptr ? CUDA_ERROR_INVALID_VALUE : alloc_async(dptr, bytes, pool, stream, per_thread);
}

template <class Body>
CUresult with_pool(CUmemoryPool handle, Body body) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    MemoryPool* pool = find_pool(handle);
    return pool == nullptr ? CUDA_ERROR_INVALID_VALUE : body(pool);
  });
}

}  // namespace

SIMCUDA_API CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  return guard([&] { return alloc_async(dptr, bytesize, current_pool(), hStream, false); });
}
SIMCUDA_API CUresult cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  return guard([&] { return alloc_async(dptr, bytesize, current_pool(), hStream, true); });
}
SIMCUDA_API CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream) {
  return guard([&] { return alloc_from(dptr, bytesize, pool, hStream, false); });
}
SIMCUDA_API CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                                  CUstream hStream) {
  return guard([&] { return alloc_from(dptr, bytesize, pool, hStream, true); });
}

SIMCUDA_API CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    return pool_free_async(dptr, hStream, false);
  });
}
SIMCUDA_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    return pool_free_async(dptr, hStream, true);
  });
}

SIMCUDA_API CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pool_out == nullptr) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *pool_out = reinterpret_cast<CUmemoryPool>(default_pool());
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pool == nullptr) return CUDA_ERROR_INVALID_VALUE;
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    *pool = reinterpret_cast<CUmemoryPool>(current_pool());
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool handle) {
  return with_pool(handle, [&](MemoryPool* pool) {
    if (dev != 0) return CUDA_ERROR_INVALID_DEVICE;
    set_current_pool(pool);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* props) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pool == nullptr || props == nullptr || props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
        props->location.type != CU_MEM_LOCATION_TYPE_DEVICE || props->location.id != 0)
      return CUDA_ERROR_INVALID_VALUE;
    *pool = reinterpret_cast<CUmemoryPool>(create_pool());
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemPoolDestroy(CUmemoryPool handle) {
  return with_pool(handle, [&](MemoryPool* pool) {
    if (pool == default_pool()) return CUDA_ERROR_INVALID_VALUE;
    destroy_pool(pool);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemPoolTrimTo(CUmemoryPool handle, size_t minBytesToKeep) {
  return with_pool(handle, [&](MemoryPool* pool) {
    trim_pool(pool, minBytesToKeep);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemPoolSetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void* value) {
  return with_pool(handle, [&](MemoryPool* pool) { return set_pool_attribute(pool, attr, value); });
}

SIMCUDA_API CUresult cuMemPoolGetAttribute(CUmemoryPool handle, CUmemPool_attribute attr, void* value) {
  return with_pool(handle, [&](MemoryPool* pool) { return get_pool_attribute(pool, attr, value); });
}
