// Fills the runtime's table of real driver functions from their versioned ABI symbol names.
#include "runtime/driver_api.h"

namespace tidepool::runtime {
namespace {

template <class Function>
void load(Function& field, void* (*lookup)(const char*), const char* symbol) {
  field = reinterpret_cast<Function>(lookup(symbol));
}

}  // namespace

bool DriverApi::complete() const {
  const void* const all[] = {
      reinterpret_cast<const void*>(ctx_get_current), reinterpret_cast<const void*>(ctx_set_current),
      reinterpret_cast<const void*>(ctx_get_device), reinterpret_cast<const void*>(ctx_synchronize),
      reinterpret_cast<const void*>(mem_get_info), reinterpret_cast<const void*>(mem_alloc),
      reinterpret_cast<const void*>(mem_free), reinterpret_cast<const void*>(mem_alloc_host),
      reinterpret_cast<const void*>(mem_free_host), reinterpret_cast<const void*>(mem_address_reserve),
      reinterpret_cast<const void*>(mem_address_free), reinterpret_cast<const void*>(mem_create),
      reinterpret_cast<const void*>(mem_release), reinterpret_cast<const void*>(mem_map),
      reinterpret_cast<const void*>(mem_unmap), reinterpret_cast<const void*>(mem_set_access),
      reinterpret_cast<const void*>(mem_get_allocation_granularity), reinterpret_cast<const void*>(memcpy_htod),
      reinterpret_cast<const void*>(memcpy_dtoh), reinterpret_cast<const void*>(memcpy_htod_async),
      reinterpret_cast<const void*>(memcpy_dtoh_async), reinterpret_cast<const void*>(stream_create),
      reinterpret_cast<const void*>(stream_destroy), reinterpret_cast<const void*>(stream_wait_event),
      reinterpret_cast<const void*>(stream_synchronize), reinterpret_cast<const void*>(event_create),
      reinterpret_cast<const void*>(event_destroy), reinterpret_cast<const void*>(event_record),
      reinterpret_cast<const void*>(event_query), reinterpret_cast<const void*>(event_synchronize),
      reinterpret_cast<const void*>(event_elapsed_time),
  };
  for (const void* function : all)
    if (function == nullptr) return false;
  return true;
}

// The names are the ABI symbols behind cuda.h's #defines (cuMemAlloc -> cuMemAlloc_v2, ...) for the
// PFN versions the table declares. Unversioned names are those whose oldest ABI is the one meant:
// cuCtxGetDevice and cuCtxSynchronize (CUDA 13's _v2 forms take a context), cuStreamWaitEvent and
// cuEventRecord (the legacy-default-stream forms, not _ptsz).
DriverApi load_driver_api(void* (*lookup)(const char* symbol)) {
  DriverApi api;
  load(api.ctx_get_current, lookup, "cuCtxGetCurrent");
  load(api.ctx_set_current, lookup, "cuCtxSetCurrent");
  load(api.ctx_get_device, lookup, "cuCtxGetDevice");
  load(api.ctx_synchronize, lookup, "cuCtxSynchronize");
  load(api.mem_get_info, lookup, "cuMemGetInfo_v2");
  load(api.mem_alloc, lookup, "cuMemAlloc_v2");
  load(api.mem_free, lookup, "cuMemFree_v2");
  load(api.mem_alloc_host, lookup, "cuMemAllocHost_v2");
  load(api.mem_free_host, lookup, "cuMemFreeHost");
  load(api.mem_address_reserve, lookup, "cuMemAddressReserve");
  load(api.mem_address_free, lookup, "cuMemAddressFree");
  load(api.mem_create, lookup, "cuMemCreate");
  load(api.mem_release, lookup, "cuMemRelease");
  load(api.mem_map, lookup, "cuMemMap");
  load(api.mem_unmap, lookup, "cuMemUnmap");
  load(api.mem_set_access, lookup, "cuMemSetAccess");
  load(api.mem_get_allocation_granularity, lookup, "cuMemGetAllocationGranularity");
  load(api.memcpy_htod, lookup, "cuMemcpyHtoD_v2");
  load(api.memcpy_dtoh, lookup, "cuMemcpyDtoH_v2");
  load(api.memcpy_htod_async, lookup, "cuMemcpyHtoDAsync_v2");
  load(api.memcpy_dtoh_async, lookup, "cuMemcpyDtoHAsync_v2");
  load(api.stream_create, lookup, "cuStreamCreate");
  load(api.stream_destroy, lookup, "cuStreamDestroy_v2");
  load(api.stream_wait_event, lookup, "cuStreamWaitEvent");
  load(api.stream_synchronize, lookup, "cuStreamSynchronize");
  load(api.event_create, lookup, "cuEventCreate");
  load(api.event_destroy, lookup, "cuEventDestroy_v2");
  load(api.event_record, lookup, "cuEventRecord");
  load(api.event_query, lookup, "cuEventQuery");
  load(api.event_synchronize, lookup, "cuEventSynchronize");
  load(api.event_elapsed_time, lookup, "cuEventElapsedTime_v2");
  return api;
}

}  // namespace tidepool::runtime
