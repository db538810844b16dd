// cuPointerGetAttribute and cuPointerGetAttributes for the common attributes.
#include <cstring>

#include "tools/simcuda/src/allocations.h"
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/host_memory.h"
#include "tools/simcuda/src/managed.h"
#include "tools/simcuda/src/mempool.h"
#include "tools/simcuda/src/vmm.h"

using namespace simcuda;

namespace {

struct PointerInfo {
  CUmemorytype type{};
  uint64_t base = 0, size = 0, buffer_id = 0;
  void* pool = nullptr;
  bool vmm = false;
  bool managed = false;
};

bool describe(uint64_t ptr, PointerInfo& info) {
  if (const auto a = find_allocation(ptr)) {
    info = {CU_MEMORYTYPE_DEVICE, a->base, a->requested, a->id, a->pool, false, false};
    return true;
  }
  if (const auto m = find_mapping(ptr)) {
    info = {CU_MEMORYTYPE_DEVICE, m->begin, m->size, m->begin, nullptr, true, false};
    return true;
  }
  if (const auto m = find_managed(ptr)) {
    info = {CU_MEMORYTYPE_DEVICE, m->begin, m->size, m->begin, nullptr, false, true};
    return true;
  }
  if (const auto h = find_pinned(ptr, 1)) {
    info = {CU_MEMORYTYPE_HOST, h->begin, h->size, h->begin, nullptr, false, false};
    return true;
  }
  return false;
}

template <class T>
void put(void* data, T value) {
  std::memcpy(data, &value, sizeof value);
}

// CUDA_ERROR_INVALID_VALUE for an attribute simcuda does not answer.
CUresult answer(const PointerInfo& info, CUpointer_attribute attribute, uint64_t ptr, void* data) {
  Context* ctx = current_context();
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT: put(data, ctx != nullptr ? ctx->handle() : primary_context().handle()); break;
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE: put(data, static_cast<unsigned>(info.type)); break;
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER: put(data, CUdeviceptr{ptr}); break;
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (info.type != CU_MEMORYTYPE_HOST && !info.managed) return CUDA_ERROR_INVALID_VALUE;
      put(data, reinterpret_cast<void*>(ptr));
      break;
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: put(data, 1); break;
    case CU_POINTER_ATTRIBUTE_BUFFER_ID: put(data, static_cast<unsigned long long>(info.buffer_id)); break;
    case CU_POINTER_ATTRIBUTE_IS_MANAGED: put(data, info.managed ? 1 : 0); break;
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL: put(data, 0); break;
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR: put(data, CUdeviceptr{info.base}); break;
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE: put(data, size_t{info.size}); break;
    case CU_POINTER_ATTRIBUTE_MAPPED: put(data, 1); break;
    case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE: put(data, 0); break;
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES: put(data, 0ull); break;
    case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE: put(data, 0); break;
    case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS: put(data, 3); break;  // CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE: put(data, info.pool); break;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

size_t attribute_size(CUpointer_attribute attribute) {
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
    case CU_POINTER_ATTRIBUTE_BUFFER_ID:
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
    case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
    case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
      return 8;
    default:
      return 4;
  }
}

}  // namespace

SIMCUDA_API CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (data == nullptr) return CUDA_ERROR_INVALID_VALUE;
    PointerInfo info;
    if (!describe(ptr, info)) return CUDA_ERROR_INVALID_VALUE;
    return answer(info, attribute, ptr, data);
  });
}

SIMCUDA_API CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes, void** data,
                                            CUdeviceptr ptr) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (attributes == nullptr || data == nullptr) return CUDA_ERROR_INVALID_VALUE;
    PointerInfo info;
    const bool known = describe(ptr, info);
    for (unsigned i = 0; i < numAttributes; ++i) {
      if (data[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
      // Unlike cuPointerGetAttribute, an unknown pointer is not an error: its attributes are zero.
      if (!known || answer(info, attributes[i], ptr, data[i]) != CUDA_SUCCESS)
        std::memset(data[i], 0, attribute_size(attributes[i]));
    }
    return CUDA_SUCCESS;
  });
}
