// cuModuleLoad*, cuModuleGetFunction, cuLibrary*, cuKernel*, cuFunc* (name, parameters, attributes).
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/module.h"

namespace simcuda {
namespace {

struct Module {
  std::map<std::string, std::unique_ptr<Function>, std::less<>> functions;
};

struct Modules {
  std::mutex mutex;
  std::map<void*, std::unique_ptr<Module>> live;
  std::set<const void*> functions;
};

Modules& modules() {
  static Modules& instance = *new Modules;
  return instance;
}

void* load(bool need_context, const void* image, CUresult& result) {
  result = require_init();
  Context* ctx = nullptr;
  if (result == CUDA_SUCCESS && need_context) result = require_context(ctx);
  if (result == CUDA_SUCCESS && image == nullptr) result = CUDA_ERROR_INVALID_VALUE;
  if (result != CUDA_SUCCESS) return nullptr;
  auto module = std::make_unique<Module>();
  void* handle = module.get();
  const std::lock_guard lock(modules().mutex);
  modules().live.emplace(handle, std::move(module));
  return handle;
}

CUresult load_file(const char* fname, bool need_context, void*& handle) {
  if (fname == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!std::ifstream(fname, std::ios::binary)) return CUDA_ERROR_FILE_NOT_FOUND;
  CUresult r = CUDA_SUCCESS;
  handle = load(need_context, fname, r);
  return r;
}

CUresult unload(void* handle) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  const std::lock_guard lock(modules().mutex);
  const auto it = modules().live.find(handle);
  if (it == modules().live.end()) return CUDA_ERROR_INVALID_HANDLE;
  for (const auto& [name, f] : it->second->functions) modules().functions.erase(f.get());
  modules().live.erase(it);
  return CUDA_SUCCESS;
}

CUresult get_function(void* handle, const char* name, Function*& out) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const std::lock_guard lock(modules().mutex);
  const auto it = modules().live.find(handle);
  if (it == modules().live.end()) return CUDA_ERROR_INVALID_HANDLE;
  auto& slot = it->second->functions[name];
  if (slot == nullptr) {
    const KernelInfo* twin = find_kernel(name);
    if (twin == nullptr) {
      it->second->functions.erase(name);
      return CUDA_ERROR_NOT_FOUND;
    }
    slot = std::make_unique<Function>();
    slot->twin = twin;
    slot->name = name;
    slot->owner = handle;
    for (const Param& p : twin->params) slot->param_bytes = std::max(slot->param_bytes, p.offset + p.size);
    modules().functions.insert(slot.get());
  }
  out = slot.get();
  return CUDA_SUCCESS;
}

CUresult with_function(const void* handle, Function*& out) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  out = find_function(handle);
  return out != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult param_info(const void* handle, size_t index, size_t* offset, size_t* size) {
  Function* f = nullptr;
  if (const CUresult r = with_function(handle, f); r != CUDA_SUCCESS) return r;
  if (index >= f->twin->params.size()) return CUDA_ERROR_INVALID_VALUE;
  if (offset != nullptr) *offset = f->twin->params[index].offset;
  if (size != nullptr) *size = f->twin->params[index].size;
  return CUDA_SUCCESS;
}

CUresult name_of(const void* handle, const char** name) {
  if (name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Function* f = nullptr;
  if (const CUresult r = with_function(handle, f); r != CUDA_SUCCESS) return r;
  *name = f->name.c_str();
  return CUDA_SUCCESS;
}

CUresult attribute(int* value, CUfunction_attribute attrib, const void* handle) {
  if (value == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Function* f = nullptr;
  if (const CUresult r = with_function(handle, f); r != CUDA_SUCCESS) return r;
  switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = 1024; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *value = 32; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION:
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *value = 90; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = 49152; break;
    default:
      if (attrib < 0 || attrib >= CU_FUNC_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
      *value = 0;
  }
  return CUDA_SUCCESS;
}

}  // namespace

Function* find_function(const void* handle) {
  const std::lock_guard lock(modules().mutex);
  return modules().functions.contains(handle) ? static_cast<Function*>(const_cast<void*>(handle)) : nullptr;
}

}  // namespace simcuda

using namespace simcuda;

SIMCUDA_API CUresult cuModuleLoad(CUmodule* module, const char* fname) {
  return guard([&] {
    if (module == nullptr) return CUDA_ERROR_INVALID_VALUE;
    void* handle = nullptr;
    const CUresult r = load_file(fname, true, handle);
    if (r == CUDA_SUCCESS) *module = static_cast<CUmodule>(handle);
    return r;
  });
}

SIMCUDA_API CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  return guard([&] {
    if (module == nullptr) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    void* handle = load(true, image, r);
    if (r == CUDA_SUCCESS) *module = static_cast<CUmodule>(handle);
    return r;
  });
}

SIMCUDA_API CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int, CUjit_option*, void**) {
  return cuModuleLoadData(module, image);
}

SIMCUDA_API CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  return cuModuleLoadData(module, fatCubin);
}

SIMCUDA_API CUresult cuModuleUnload(CUmodule hmod) { return guard([&] { return unload(hmod); }); }

SIMCUDA_API CUresult cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  return guard([&] {
    if (hfunc == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Function* f = nullptr;
    const CUresult r = get_function(hmod, name, f);
    if (r == CUDA_SUCCESS) *hfunc = reinterpret_cast<CUfunction>(f);
    return r;
  });
}

SIMCUDA_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  if (mode == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *mode = CU_MODULE_EAGER_LOADING;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option*, void**, unsigned int,
                                       CUlibraryOption*, void**, unsigned int) {
  return guard([&] {
    if (library == nullptr) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = CUDA_SUCCESS;
    void* handle = load(false, code, r);
    if (r == CUDA_SUCCESS) *library = static_cast<CUlibrary>(handle);
    return r;
  });
}

SIMCUDA_API CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* fileName, CUjit_option*, void**,
                                           unsigned int, CUlibraryOption*, void**, unsigned int) {
  return guard([&] {
    if (library == nullptr) return CUDA_ERROR_INVALID_VALUE;
    void* handle = nullptr;
    const CUresult r = load_file(fileName, false, handle);
    if (r == CUDA_SUCCESS) *library = static_cast<CUlibrary>(handle);
    return r;
  });
}

SIMCUDA_API CUresult cuLibraryUnload(CUlibrary library) { return guard([&] { return unload(library); }); }

SIMCUDA_API CUresult cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  return guard([&] {
    if (pKernel == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Function* f = nullptr;
    const CUresult r = get_function(library, name, f);
    if (r == CUDA_SUCCESS) *pKernel = reinterpret_cast<CUkernel>(f);
    return r;
  });
}

SIMCUDA_API CUresult cuLibraryGetModule(CUmodule* pMod, CUlibrary library) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pMod == nullptr) return CUDA_ERROR_INVALID_VALUE;
    const std::lock_guard lock(modules().mutex);
    if (!modules().live.contains(library)) return CUDA_ERROR_INVALID_HANDLE;
    *pMod = reinterpret_cast<CUmodule>(library);  // a library is its own module
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  return guard([&] {
    if (pFunc == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Function* f = nullptr;
    const CUresult r = with_function(kernel, f);
    if (r == CUDA_SUCCESS) *pFunc = reinterpret_cast<CUfunction>(f);
    return r;
  });
}

SIMCUDA_API CUresult cuKernelGetName(const char** name, CUkernel hfunc) {
  return guard([&] { return name_of(hfunc, name); });
}
SIMCUDA_API CUresult cuFuncGetName(const char** name, CUfunction hfunc) {
  return guard([&] { return name_of(hfunc, name); });
}

SIMCUDA_API CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  return guard([&] { return param_info(func, paramIndex, paramOffset, paramSize); });
}
SIMCUDA_API CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset, size_t* paramSize) {
  return guard([&] { return param_info(kernel, paramIndex, paramOffset, paramSize); });
}

SIMCUDA_API CUresult cuFuncGetModule(CUmodule* hmod, CUfunction hfunc) {
  return guard([&] {
    Function* f = nullptr;
    if (const CUresult r = with_function(hfunc, f); r != CUDA_SUCCESS) return r;
    if (hmod == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *hmod = static_cast<CUmodule>(f->owner);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  return guard([&] { return attribute(pi, attrib, hfunc); });
}
SIMCUDA_API CUresult cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev) {
  return guard([&] { return dev != 0 ? CUDA_ERROR_INVALID_DEVICE : attribute(pi, attrib, kernel); });
}

SIMCUDA_API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute, int) {
  return guard([&] {
    Function* f = nullptr;
    return with_function(hfunc, f);
  });
}
SIMCUDA_API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache) {
  return guard([&] {
    Function* f = nullptr;
    return with_function(hfunc, f);
  });
}
