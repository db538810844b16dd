// cuMemAlloc, cuMemAllocPitch, cuMemFree, cuMemGetInfo, cuMemGetAddressRange.
#include <cstdint>

#include "tools/simcuda/src/allocations.h"
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/managed.h"
#include "tools/simcuda/src/mempool.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/settings.h"
#include "tools/simcuda/src/stats.h"
#include "tools/simcuda/src/vmm.h"

using namespace simcuda;

namespace {

constexpr uint64_t kPitchAlignment = 512;

CUresult allocate(CUdeviceptr* dptr, uint64_t bytes) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
  if (dptr == nullptr || bytes == 0) return CUDA_ERROR_INVALID_VALUE;
  const auto address = heap_allocate(bytes);
  if (!address) return CUDA_ERROR_OUT_OF_MEMORY;
  add_allocation(*address, bytes, nullptr);
  stats_allocation(bytes);
  *dptr = *address;
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize) {
  return guard([&] { return allocate(dptr, bytesize); });
}

SIMCUDA_API CUresult cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height,
                                        unsigned int ElementSizeBytes) {
  return guard([&] {
    if (pPitch == nullptr || WidthInBytes == 0 || Height == 0) return CUDA_ERROR_INVALID_VALUE;
    if (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16) return CUDA_ERROR_INVALID_VALUE;
    const uint64_t pitch = (WidthInBytes + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
    if (Height > UINT64_MAX / pitch) return CUDA_ERROR_OUT_OF_MEMORY;
    const CUresult r = allocate(dptr, pitch * Height);
    if (r == CUDA_SUCCESS) *pPitch = pitch;
    return r;
  });
}

SIMCUDA_API CUresult cuMemFree_v2(CUdeviceptr dptr) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    const auto allocation = find_allocation(dptr);
    const auto managed = allocation ? std::nullopt : find_managed(dptr);
    if (managed && managed->begin == dptr) {  // managed memory: not a device free
      if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
      synchronize_device();
      return free_managed(dptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    }
    if (!allocation || allocation->base != dptr) return CUDA_ERROR_INVALID_VALUE;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    // Like the real driver, a free waits for the device: nothing still running may use the memory.
    synchronize_device();
    if (allocation->pool != nullptr) return free_to_pool_now(dptr);
    if (!take_allocation(dptr)) return CUDA_ERROR_INVALID_VALUE;  // freed by another thread meanwhile
    heap_release(dptr, allocation->requested);
    stats_free(allocation->requested);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (free == nullptr || total == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *total = settings().memory_bytes;
    *free = settings().memory_bytes - charged_bytes();
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemGetAddressRange_v2(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    uint64_t base = 0;
    uint64_t size = 0;
    if (const auto a = find_allocation(dptr)) {
      base = a->base;
      size = a->requested;
    } else if (const auto m = find_mapping(dptr)) {
      base = m->begin;
      size = m->size;
    } else if (const auto managed = find_managed(dptr)) {
      base = managed->begin;
      size = managed->size;
    } else {
      return CUDA_ERROR_NOT_FOUND;
    }
    if (pbase != nullptr) *pbase = base;
    if (psize != nullptr) *psize = size;
    return CUDA_SUCCESS;
  });
}
