// Opens simcuda's libcuda.so.1 from the build with dlopen and fills the tables from it.
#include "tests/swap_space/simcuda_driver.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace tidepool::testing {
namespace {

void* library() {
  static void* const handle = [] {
    setenv("SIMCUDA_MEMORY", std::to_string(kDeviceMemory).c_str(), 1);  // read when simcuda loads
    return dlopen(TIDEPOOL_SIMCUDA_DIR "/libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  }();
  return handle;
}

template <class Function>
void load(Function& field, const char* name) {
  field = reinterpret_cast<Function>(simcuda_symbol(name));
  EXPECT_NE(field, nullptr) << name;
}

}  // namespace

void* simcuda_symbol(const char* name) { return library() == nullptr ? nullptr : dlsym(library(), name); }

const SimcudaDriver& simcuda() {
  static const SimcudaDriver driver = [] {
    EXPECT_NE(library(), nullptr) << "cannot open " TIDEPOOL_SIMCUDA_DIR "/libcuda.so.1: " << dlerror();
    SimcudaDriver d;
    d.api = runtime::load_driver_api(&simcuda_symbol);
    load(d.init, "cuInit");
    load(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain");
    load(d.primary_ctx_release, "cuDevicePrimaryCtxRelease_v2");
    load(d.module_load_data, "cuModuleLoadData");
    load(d.module_unload, "cuModuleUnload");
    load(d.module_get_function, "cuModuleGetFunction");
    load(d.launch_kernel, "cuLaunchKernel");
    load(d.stream_wait_value32, "cuStreamWaitValue32_v2");
    return d;
  }();
  return driver;
}

}  // namespace tidepool::testing
