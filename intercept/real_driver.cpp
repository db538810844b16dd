// Finds the real CUDA driver once and the real function behind every hooked symbol.
#include "intercept/real_driver.h"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "runtime/settings.h"

namespace tidepool::intercept {
namespace {

constexpr std::array<const char*, kHookCount> kSymbols = {
#define TIDEPOOL_SYMBOL_NAME(api, symbol, version, mode) #symbol,
    TIDEPOOL_HOOK_LIST(TIDEPOOL_SYMBOL_NAME)
#undef TIDEPOOL_SYMBOL_NAME
};

using DlsymFn = void* (*)(void*, const char*);

DlsymFn find_libc_dlsym() {
  // dlvsym is not interposed by us, so it reaches the C library's own dlsym.
  for (const char* version : {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17"}) {
    if (void* f = dlvsym(RTLD_NEXT, "dlsym", version)) return reinterpret_cast<DlsymFn>(f);
  }
  return nullptr;
}

struct Driver {
  void* handle = nullptr;
  std::array<void*, kHookCount> own{};   // the driver's own function of each symbol
  std::array<void*, kHookCount> next{};  // what our wrapper calls: the next interposer's, or own
};

Driver g_driver;
std::atomic<bool> g_loaded{false};
std::once_flag g_once;
thread_local bool t_loading = false;

bool is_our_own_library(void* handle) {
  Dl_info ours{}, theirs{};
  void* probe = libc_dlsym(handle, "cuGetProcAddress");
  if (probe == nullptr) return false;
  if (dladdr(reinterpret_cast<void*>(&is_our_own_library), &ours) == 0) return false;
  if (dladdr(probe, &theirs) == 0) return false;
  return ours.dli_fbase == theirs.dli_fbase;
}

void load() {
  t_loading = true;
  const std::string& configured = runtime::settings().real_libcuda;
  const char* path = configured.empty() ? "libcuda.so.1" : configured.c_str();
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    std::fprintf(stderr, "tidepool: cannot load the CUDA driver %s: %s\n", path, dlerror());
  } else if (is_our_own_library(handle)) {
    std::fprintf(stderr, "tidepool: %s is libtidepool.so itself, not a CUDA driver\n", path);
    dlclose(handle);
  } else {
    g_driver.handle = handle;
    // Another interposer preloaded after us, or the driver the program linked, comes next; an
    // explicitly configured driver is called directly.
    const bool chain = configured.empty();
    for (std::size_t i = 0; i < kHookCount; ++i) {
      g_driver.own[i] = libc_dlsym(handle, kSymbols[i]);
      void* next = chain ? libc_dlsym(RTLD_NEXT, kSymbols[i]) : nullptr;
      g_driver.next[i] = next != nullptr ? next : g_driver.own[i];
    }
  }
  t_loading = false;
  g_loaded.store(true, std::memory_order_release);
}

}  // namespace

void* libc_dlsym_address() {
  static const DlsymFn real = find_libc_dlsym();
  return reinterpret_cast<void*>(real);
}

void* libc_dlsym(void* handle, const char* name) {
  const auto real = reinterpret_cast<DlsymFn>(libc_dlsym_address());
  return real != nullptr ? real(handle, name) : nullptr;
}

bool loading_real_driver() { return t_loading; }

bool real_driver_loaded() {
  if (!g_loaded.load(std::memory_order_acquire)) {
    if (t_loading) return false;  // the driver's own initialisation calling back into us
    std::call_once(g_once, load);
  }
  return g_driver.handle != nullptr;
}

void* real_function(HookIndex index) {
  if (!real_driver_loaded()) return nullptr;
  return g_driver.next[static_cast<std::size_t>(index)];
}

void* driver_own_function(HookIndex index) {
  if (!real_driver_loaded()) return nullptr;
  return g_driver.own[static_cast<std::size_t>(index)];
}

void* real_driver_symbol(const char* name) {
  if (!real_driver_loaded()) return nullptr;
  return libc_dlsym(g_driver.handle, name);
}

}  // namespace tidepool::intercept
