// Hooks of the virtual memory management API (physical allocations, reservations, mappings) and
// of CUDA arrays: allocations known by handle.
#include <algorithm>

#include "intercept/hook_abi.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

using trace::AllocKind;

// Records an allocation known by handle and remembers it in `table`.
void record_handle_alloc(runtime::Recorder& rec, runtime::HandleAllocations& table, AllocKind kind, uint64_t handle,
                         uint64_t size, uint64_t address = 0) {
  const Placement where = current_placement();
  trace::Alloc a = make_alloc(rec, kind, address, size, where);
  a.handle = handle;
  table.add(address != 0 ? address : handle, {a.alloc_id, kind, size, where.context, where.device});
  rec.record(a);
}

template <class Release>
CUresult release_handle(runtime::HandleAllocations& table, uint64_t key, Release&& release) {
  runtime::Recorder* rec = recorder();
  const auto gone = rec != nullptr ? table.remove(key) : std::nullopt;
  const CUresult r = release();
  if (gone) {
    if (r == CUDA_SUCCESS) {
      rec->record(trace::Free{gone->alloc_id, gone->kind, 0});
    } else {
      table.add(key, *gone);
    }
  }
  return r;
}

uint64_t element_bytes(CUarray_format format) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
      return 1;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
      return 2;
    case CU_AD_FORMAT_UNSIGNED_INT32:
    case CU_AD_FORMAT_SIGNED_INT32:
    case CU_AD_FORMAT_FLOAT:
      return 4;
    default:
      return 4;  // the packed and compressed formats: an estimate, arrays are rare
  }
}

uint64_t array_bytes(size_t width, size_t height, size_t depth, CUarray_format format, unsigned channels) {
  return static_cast<uint64_t>(width) * std::max<size_t>(height, 1) * std::max<size_t>(depth, 1) *
         element_bytes(format) * channels;
}

}  // namespace

CUresult on_cuMemCreate(const Real<PFN_cuMemCreate_v10020>& real, CUmemGenericAllocationHandle* handle, size_t size,
                        const CUmemAllocationProp* prop, unsigned long long flags) {
  const CUresult r = real(handle, size, prop, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_handle_alloc(*rec, state().physical, AllocKind::vmm_physical, *handle, size);
  }
  return r;
}

CUresult on_cuMemImportFromShareableHandle(const Real<PFN_cuMemImportFromShareableHandle_v10020>& real,
                                           CUmemGenericAllocationHandle* handle, void* os_handle,
                                           CUmemAllocationHandleType type) {
  const CUresult r = real(handle, os_handle, type);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_handle_alloc(*rec, state().physical, AllocKind::imported, *handle, 0);
  }
  return r;
}

CUresult on_cuMemRelease(const Real<PFN_cuMemRelease_v10020>& real, CUmemGenericAllocationHandle handle) {
  return release_handle(state().physical, handle, [&] { return real(handle); });
}

CUresult on_cuMemAddressReserve(const Real<PFN_cuMemAddressReserve_v10020>& real, CUdeviceptr* ptr, size_t size,
                                size_t alignment, CUdeviceptr hint, unsigned long long flags) {
  const CUresult r = real(ptr, size, alignment, hint, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) record_handle_alloc(*rec, state().reservations, AllocKind::vmm_reserve, 0, size, *ptr);
  }
  return r;
}

CUresult on_cuMemAddressFree(const Real<PFN_cuMemAddressFree_v10020>& real, CUdeviceptr ptr, size_t size) {
  return release_handle(state().reservations, ptr, [&] { return real(ptr, size); });
}

CUresult on_cuMemMap(const Real<PFN_cuMemMap_v10020>& real, CUdeviceptr ptr, size_t size, size_t offset,
                     CUmemGenericAllocationHandle handle, unsigned long long flags) {
  const CUresult r = real(ptr, size, offset, handle, flags);
  if (r != CUDA_SUCCESS) return r;
  if (auto* rec = recorder()) {
    const auto physical = state().physical.find(handle);
    const uint64_t id = physical ? physical->alloc_id : 0;
    if (physical) {
      state().by_address.add({ptr, size, id, offset, physical->context, physical->device, physical->kind});
    }
    rec->record(trace::VmmMap{ptr, size, offset, handle, id});
  }
  return r;
}

CUresult on_cuMemUnmap(const Real<PFN_cuMemUnmap_v10020>& real, CUdeviceptr ptr, size_t size) {
  const CUresult r = real(ptr, size);
  if (r != CUDA_SUCCESS) return r;
  if (auto* rec = recorder()) {
    state().by_address.remove_within(ptr, size);
    rec->record(trace::VmmUnmap{ptr, size});
  }
  return r;
}

CUresult on_cuArrayCreate(const Real<PFN_cuArrayCreate_v3020>& real, CUarray* array,
                          const CUDA_ARRAY_DESCRIPTOR* desc) {
  const CUresult r = real(array, desc);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t bytes = array_bytes(desc->Width, desc->Height, 1, desc->Format, desc->NumChannels);
      record_handle_alloc(*rec, state().arrays, AllocKind::array, handle_u64(*array), bytes);
    }
  }
  return r;
}

CUresult on_cuArray3DCreate(const Real<PFN_cuArray3DCreate_v3020>& real, CUarray* array,
                            const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  const CUresult r = real(array, desc);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t bytes = array_bytes(desc->Width, desc->Height, desc->Depth, desc->Format, desc->NumChannels);
      record_handle_alloc(*rec, state().arrays, AllocKind::array, handle_u64(*array), bytes);
    }
  }
  return r;
}

CUresult on_cuMipmappedArrayCreate(const Real<PFN_cuMipmappedArrayCreate_v5000>& real, CUmipmappedArray* array,
                                   const CUDA_ARRAY3D_DESCRIPTOR* desc, unsigned int levels) {
  const CUresult r = real(array, desc, levels);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      uint64_t bytes = 0;
      size_t w = desc->Width, h = desc->Height, d = desc->Depth;
      for (unsigned level = 0; level < levels; ++level) {
        bytes += array_bytes(w, h, d, desc->Format, desc->NumChannels);
        w = std::max<size_t>(w / 2, 1);
        h = h == 0 ? 0 : std::max<size_t>(h / 2, 1);
        d = d == 0 ? 0 : std::max<size_t>(d / 2, 1);
      }
      record_handle_alloc(*rec, state().arrays, AllocKind::array, handle_u64(*array), bytes);
    }
  }
  return r;
}

CUresult on_cuArrayDestroy(const Real<PFN_cuArrayDestroy_v2000>& real, CUarray array) {
  return release_handle(state().arrays, handle_u64(array), [&] { return real(array); });
}

CUresult on_cuMipmappedArrayDestroy(const Real<PFN_cuMipmappedArrayDestroy_v5000>& real, CUmipmappedArray array) {
  return release_handle(state().arrays, handle_u64(array), [&] { return real(array); });
}

}  // namespace tidepool::intercept
