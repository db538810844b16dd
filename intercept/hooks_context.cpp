// Hooks of contexts (creation, destruction and primary-context reset, which free everything the
// context held) and of module loads.
#include <map>
#include <mutex>

#include "intercept/function_info.h"
#include "intercept/hook_abi.h"
#include "intercept/real_driver.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

// The primary context of each device, as the program retained it.
class PrimaryContexts {
 public:
  // True the first time a device's primary context is seen.
  bool remember(int32_t device, uint64_t context) {
    const std::lock_guard lock(mutex_);
    auto [it, inserted] = by_device_.try_emplace(device, context);
    if (!inserted && it->second != context) {
      it->second = context;
      return true;
    }
    return inserted;
  }
  uint64_t of(int32_t device) const {
    const std::lock_guard lock(mutex_);
    auto it = by_device_.find(device);
    return it == by_device_.end() ? 0 : it->second;
  }

 private:
  mutable std::mutex mutex_;
  std::map<int32_t, uint64_t> by_device_;
};

PrimaryContexts& primary_contexts() {
  static auto* const contexts = new PrimaryContexts;
  return *contexts;
}

// The context's allocations are gone: forget them (the ContextDestroy record implies their frees).
void forget_context(uint64_t context) {
  state().by_address.remove_context(context);
  state().physical.remove_context(context);
  state().arrays.remove_context(context);
  state().reservations.remove_context(context);
}

int32_t device_of(CUcontext context) {
  static const auto get_device = reinterpret_cast<PFN_cuCtxGetDevice_v2000>(real_driver_symbol("cuCtxGetDevice"));
  static const auto push = reinterpret_cast<PFN_cuCtxPushCurrent_v4000>(real_driver_symbol("cuCtxPushCurrent_v2"));
  static const auto pop = reinterpret_cast<PFN_cuCtxPopCurrent_v4000>(real_driver_symbol("cuCtxPopCurrent_v2"));
  CUdevice device = 0;
  if (get_device == nullptr || push == nullptr || pop == nullptr || push(context) != CUDA_SUCCESS) return 0;
  get_device(&device);
  CUcontext popped = nullptr;
  pop(&popped);
  return device;
}

void record_module_load(uint64_t module, const char* path) {
  if (auto* rec = recorder()) rec->record(trace::ModuleLoad{module, rec->intern(path != nullptr ? path : "<image>")});
}

}  // namespace

CUresult on_cuCtxCreate(const Real<PFN_cuCtxCreate_v12050>& real, CUcontext* context, CUctxCreateParams* params,
                        unsigned int flags, CUdevice device) {
  const CUresult r = real(context, params, flags, device);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) rec->record(trace::ContextCreate{handle_u64(*context), device, false});
  }
  return r;
}

CUresult on_cuDevicePrimaryCtxRetain(const Real<PFN_cuDevicePrimaryCtxRetain_v7000>& real, CUcontext* context,
                                     CUdevice device) {
  const CUresult r = real(context, device);
  if (r == CUDA_SUCCESS && primary_contexts().remember(device, handle_u64(*context))) {
    if (auto* rec = recorder()) rec->record(trace::ContextCreate{handle_u64(*context), device, true});
  }
  return r;
}

CUresult on_cuCtxDestroy(const Real<PFN_cuCtxDestroy_v4000>& real, CUcontext context) {
  const int32_t device = device_of(context);
  const CUresult r = real(context);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      forget_context(handle_u64(context));
      rec->record(trace::ContextDestroy{handle_u64(context), device, false});
    }
  }
  return r;
}

CUresult on_cuDevicePrimaryCtxReset(const Real<PFN_cuDevicePrimaryCtxReset_v11000>& real, CUdevice device) {
  const CUresult r = real(device);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t context = primary_contexts().of(device);
      forget_context(context);
      rec->record(trace::ContextDestroy{context, device, true});
    }
  }
  return r;
}

CUresult on_cuModuleLoad(const Real<PFN_cuModuleLoad_v2000>& real, CUmodule* module, const char* path) {
  const CUresult r = real(module, path);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*module), path);
  return r;
}

CUresult on_cuModuleLoadData(const Real<PFN_cuModuleLoadData_v2000>& real, CUmodule* module, const void* image) {
  const CUresult r = real(module, image);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*module), nullptr);
  return r;
}

CUresult on_cuModuleLoadDataEx(const Real<PFN_cuModuleLoadDataEx_v2010>& real, CUmodule* module, const void* image,
                               unsigned int count, CUjit_option* options, void** values) {
  const CUresult r = real(module, image, count, options, values);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*module), nullptr);
  return r;
}

CUresult on_cuModuleLoadFatBinary(const Real<PFN_cuModuleLoadFatBinary_v2000>& real, CUmodule* module,
                                  const void* image) {
  const CUresult r = real(module, image);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*module), nullptr);
  return r;
}

CUresult on_cuLibraryLoadData(const Real<PFN_cuLibraryLoadData_v12000>& real, CUlibrary* library, const void* code,
                              CUjit_option* jit_options, void** jit_values, unsigned int jit_count,
                              CUlibraryOption* options, void** option_values, unsigned int option_count) {
  const CUresult r = real(library, code, jit_options, jit_values, jit_count, options, option_values, option_count);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*library), nullptr);
  return r;
}

CUresult on_cuLibraryLoadFromFile(const Real<PFN_cuLibraryLoadFromFile_v12000>& real, CUlibrary* library,
                                  const char* path, CUjit_option* jit_options, void** jit_values,
                                  unsigned int jit_count, CUlibraryOption* options, void** option_values,
                                  unsigned int option_count) {
  const CUresult r = real(library, path, jit_options, jit_values, jit_count, options, option_values, option_count);
  if (r == CUDA_SUCCESS) record_module_load(handle_u64(*library), path);
  return r;
}

// Function handles of an unloaded module may come back for other functions: forget their layouts.
CUresult on_cuModuleUnload(const Real<PFN_cuModuleUnload_v2000>& real, CUmodule module) {
  const CUresult r = real(module);
  if (r == CUDA_SUCCESS) forget_function_infos();
  return r;
}

CUresult on_cuLibraryUnload(const Real<PFN_cuLibraryUnload_v12000>& real, CUlibrary library) {
  const CUresult r = real(library);
  if (r == CUDA_SUCCESS) forget_function_infos();
  return r;
}

}  // namespace tidepool::intercept
