// simcuda's libcuda.so.1, opened with dlopen as the runtime opens the real driver: the swap space's
// DriverApi filled by dlsym, plus the few calls the tests make themselves.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include "runtime/driver_api.h"

namespace tidepool::testing {

struct SimcudaDriver {
  runtime::DriverApi api;
  PFN_cuInit_v2000 init = nullptr;
  PFN_cuDevicePrimaryCtxRetain_v7000 primary_ctx_retain = nullptr;
  PFN_cuDevicePrimaryCtxRelease_v11000 primary_ctx_release = nullptr;
  PFN_cuModuleLoadData_v2000 module_load_data = nullptr;
  PFN_cuModuleUnload_v2000 module_unload = nullptr;
  PFN_cuModuleGetFunction_v2000 module_get_function = nullptr;
  PFN_cuLaunchKernel_v4000 launch_kernel = nullptr;
  PFN_cuStreamWaitValue32_v11070 stream_wait_value32 = nullptr;
};

// Opens simcuda once per process with kDeviceMemory of device memory (SIMCUDA_MEMORY is set
// before it loads); fails the test when it cannot.
const SimcudaDriver& simcuda();

// The device memory the tests run with (SIMCUDA_MEMORY).
inline constexpr unsigned long long kDeviceMemory = 64ull << 20;

// dlsym in simcuda (the lookup load_driver_api is given).
void* simcuda_symbol(const char* name);

}  // namespace tidepool::testing
