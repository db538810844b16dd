// The cuMem* virtual memory management entry points (see vmm.h for the model).
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/device_memory.h"
#include "tools/simcuda/src/vmm.h"

using namespace simcuda;

namespace {

bool is_device_zero(const CUmemLocation& location) {
  return location.type == CU_MEM_LOCATION_TYPE_DEVICE && location.id == 0;
}

template <class Body>
CUresult with_context(Body body) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    return body();
  });
}

}  // namespace

SIMCUDA_API CUresult cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                                   CUmemAllocationGranularity_flags option) {
  return with_context([&] {
    if (granularity == nullptr || prop == nullptr || !is_device_zero(prop->location)) return CUDA_ERROR_INVALID_VALUE;
    if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM && option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED)
      return CUDA_ERROR_INVALID_VALUE;
    *granularity = kVmmGranularity;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr, unsigned long long flags) {
  return with_context([&] {
    if (ptr == nullptr || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    uint64_t address = 0;
    const CUresult r = vmm_address_reserve(address, size, alignment);
    if (r == CUDA_SUCCESS) *ptr = address;
    return r;
  });
}

SIMCUDA_API CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return with_context([&] { return vmm_address_free(ptr, size); });
}

SIMCUDA_API CUresult cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                                 unsigned long long flags) {
  return with_context([&] {
    if (handle == nullptr || prop == nullptr || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    return vmm_create(*handle, size, *prop);
  });
}

SIMCUDA_API CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  return with_context([&] { return vmm_release(handle); });
}

SIMCUDA_API CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                              unsigned long long flags) {
  return with_context([&] {
    if (offset != 0 || flags != 0) return CUDA_ERROR_INVALID_VALUE;
    return vmm_map(ptr, size, handle);
  });
}

SIMCUDA_API CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  return with_context([&] { return vmm_unmap(ptr, size); });
}

SIMCUDA_API CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  return with_context([&] {
    if (desc == nullptr || count == 0) return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; ++i)
      if (!is_device_zero(desc[i].location)) return CUDA_ERROR_INVALID_DEVICE;
    return vmm_set_access(ptr, size, desc[count - 1].flags);
  });
}

SIMCUDA_API CUresult cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location, CUdeviceptr ptr) {
  return with_context([&] {
    if (flags == nullptr || location == nullptr) return CUDA_ERROR_INVALID_VALUE;
    if (!is_device_zero(*location)) return CUDA_ERROR_INVALID_DEVICE;
    return vmm_get_access(ptr, *flags);
  });
}

SIMCUDA_API CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  return with_context([&] {
    if (handle == nullptr) return CUDA_ERROR_INVALID_VALUE;
    return vmm_retain(*handle, reinterpret_cast<uint64_t>(addr));
  });
}

SIMCUDA_API CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop,
                                                            CUmemGenericAllocationHandle handle) {
  return with_context([&] {
    if (prop == nullptr) return CUDA_ERROR_INVALID_VALUE;
    return vmm_properties(*prop, handle);
  });
}
