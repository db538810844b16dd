// The real driver functions that the runtime's own policies call (the planned pool, the swap
// executor, rescue). They are the driver's, never our hooks: tidepool's own calls are not the
// program's and are never recorded. intercept/ fills the table once from the real driver; tests
// fill it from simcuda's libcuda.so.1 with dlsym.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

namespace tidepool::runtime {

struct DriverApi {
  PFN_cuCtxGetCurrent_v4000 ctx_get_current = nullptr;
  PFN_cuCtxSetCurrent_v4000 ctx_set_current = nullptr;
  PFN_cuCtxGetDevice_v2000 ctx_get_device = nullptr;
  PFN_cuCtxSynchronize_v2000 ctx_synchronize = nullptr;
  PFN_cuMemGetInfo_v3020 mem_get_info = nullptr;
  PFN_cuMemAlloc_v3020 mem_alloc = nullptr;
  PFN_cuMemFree_v3020 mem_free = nullptr;
  PFN_cuMemAllocHost_v3020 mem_alloc_host = nullptr;
  PFN_cuMemFreeHost_v2000 mem_free_host = nullptr;
  PFN_cuMemAddressReserve_v10020 mem_address_reserve = nullptr;
  PFN_cuMemAddressFree_v10020 mem_address_free = nullptr;
  PFN_cuMemCreate_v10020 mem_create = nullptr;
  PFN_cuMemRelease_v10020 mem_release = nullptr;
  PFN_cuMemMap_v10020 mem_map = nullptr;
  PFN_cuMemUnmap_v10020 mem_unmap = nullptr;
  PFN_cuMemSetAccess_v10020 mem_set_access = nullptr;
  PFN_cuMemGetAllocationGranularity_v10020 mem_get_allocation_granularity = nullptr;
  PFN_cuMemcpyHtoD_v3020 memcpy_htod = nullptr;
  PFN_cuMemcpyDtoH_v3020 memcpy_dtoh = nullptr;
  PFN_cuMemcpyHtoDAsync_v3020 memcpy_htod_async = nullptr;
  PFN_cuMemcpyDtoHAsync_v3020 memcpy_dtoh_async = nullptr;
  PFN_cuStreamCreate_v2000 stream_create = nullptr;
  PFN_cuStreamDestroy_v4000 stream_destroy = nullptr;
  PFN_cuStreamWaitEvent_v3020 stream_wait_event = nullptr;
  PFN_cuStreamSynchronize_v2000 stream_synchronize = nullptr;
  PFN_cuEventCreate_v2000 event_create = nullptr;
  PFN_cuEventDestroy_v4000 event_destroy = nullptr;
  PFN_cuEventRecord_v2000 event_record = nullptr;
  PFN_cuEventQuery_v2000 event_query = nullptr;
  PFN_cuEventSynchronize_v2000 event_synchronize = nullptr;
  PFN_cuEventElapsedTime_v12080 event_elapsed_time = nullptr;

  // True when every function above was found.
  bool complete() const;
};

// Fills the table through `lookup` (a symbol name → the driver's function, nullptr when absent),
// asking for each function's versioned ABI name (cuMemAlloc_v2, cuStreamDestroy_v2, ...).
DriverApi load_driver_api(void* (*lookup)(const char* symbol));

}  // namespace tidepool::runtime
