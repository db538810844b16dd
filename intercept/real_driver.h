// The real CUDA driver, found once: libcuda.so.1 (or TIDEPOOL_REAL_LIBCUDA) opened RTLD_LOCAL,
// never ourselves, and the real function behind every hooked symbol.
#pragma once

#include <cstddef>

#include "intercept/hook_index.h"

namespace tidepool::intercept {

// Loads the driver on first use (thread-safe); false when it cannot be loaded (one warning).
bool real_driver_loaded();

// What the wrapper of a hooked symbol calls: the next definition after us (another interposer
// preloaded after us, or the driver the program linked), else the driver's own function; nullptr
// when the driver lacks the symbol or is absent.
void* real_function(HookIndex index);

// The loaded driver's own function for a hooked symbol (what its cuGetProcAddress hands out).
void* driver_own_function(HookIndex index);

// The driver's own address of any symbol (nullptr when absent).
void* real_driver_symbol(const char* name);

// The C library's dlsym, never ours, and its address.
void* libc_dlsym(void* handle, const char* name);
void* libc_dlsym_address();

// True while this thread is loading the driver (dlsym calls made meanwhile pass straight through).
bool loading_real_driver();

}  // namespace tidepool::intercept
