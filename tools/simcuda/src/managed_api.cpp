// cuMemAllocManaged, cuMemPrefetchAsync (both ABI versions, _ptsz forms) and cuMemAdvise. simcuda
// does not model page residency: a prefetch is a stream-ordered operation that takes no
// simulated time, and advice is checked and accepted. Managed memory is freed by cuMemFree.
#include <cstring>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/managed.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

// Whether [address, address + bytes) lies inside one managed allocation.
bool managed_range(CUdeviceptr address, size_t bytes) {
  const auto m = find_managed(address);
  return m && bytes > 0 && bytes <= m->begin + m->size - address;
}

bool valid_location(const CUmemLocation& location) {
  switch (location.type) {
    case CU_MEM_LOCATION_TYPE_DEVICE: return location.id == 0;
    case CU_MEM_LOCATION_TYPE_HOST: return true;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA: return location.id == 0;
    case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT: return true;
    default: return false;
  }
}

CUmemLocation device_location(CUdevice device) {
  CUmemLocation location{};
  if (device == CU_DEVICE_CPU) {
    location.type = CU_MEM_LOCATION_TYPE_HOST;
  } else {
    location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    location.id = device;
  }
  return location;
}

CUresult prefetch(CUdeviceptr address, size_t bytes, CUmemLocation location, unsigned flags, CUstream handle,
                  bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (!managed_range(address, bytes) || !valid_location(location) || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  enqueue(*stream, Engine::none, 0, nullptr);
  return CUDA_SUCCESS;
}

// advice is read as the integer the caller passed: it may be no valid enumerator.
CUresult advise(CUdeviceptr address, size_t bytes, const CUmem_advise& advice_in, CUmemLocation location) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  int advice = 0;
  std::memcpy(&advice, &advice_in, sizeof advice);
  if (!managed_range(address, bytes) || advice < CU_MEM_ADVISE_SET_READ_MOSTLY ||
      advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY)
    return CUDA_ERROR_INVALID_VALUE;
  const bool needs_location = advice != CU_MEM_ADVISE_SET_READ_MOSTLY && advice != CU_MEM_ADVISE_UNSET_READ_MOSTLY;
  return needs_location && !valid_location(location) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    if (dptr == nullptr || bytesize == 0 || (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
      return CUDA_ERROR_INVALID_VALUE;
    uint64_t address = 0;
    if (const CUresult r = allocate_managed(bytesize, address); r != CUDA_SUCCESS) return r;
    *dptr = address;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream) {
  return guard([&] { return prefetch(devPtr, count, device_location(dstDevice), 0, hStream, false); });
}
SIMCUDA_API CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream) {
  return guard([&] { return prefetch(devPtr, count, device_location(dstDevice), 0, hStream, true); });
}
SIMCUDA_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                           unsigned int flags, CUstream hStream) {
  return guard([&] { return prefetch(devPtr, count, location, flags, hStream, false); });
}
SIMCUDA_API CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                                unsigned int flags, CUstream hStream) {
  return guard([&] { return prefetch(devPtr, count, location, flags, hStream, true); });
}

SIMCUDA_API CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device) {
  return guard([&] { return advise(devPtr, count, advice, device_location(device)); });
}
SIMCUDA_API CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location) {
  return guard([&] { return advise(devPtr, count, advice, location); });
}
