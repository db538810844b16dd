// The hook list as data: one row per exported ABI symbol, with our wrapper and the real driver
// function behind it. Used by dlsym and cuGetProcAddress to hand out wrappers.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace tidepool::intercept {

struct HookRow {
  std::string_view api;     // the name programs ask cuGetProcAddress for, e.g. cuMemAlloc
  std::string_view symbol;  // the ABI symbol, e.g. cuMemAlloc_v2
  void* (*wrapper)();       // our function exported under `symbol`
};

std::span<const HookRow> hook_rows();

// The row of an exported symbol name; nullptr when that name is not hooked.
const HookRow* find_hook_by_symbol(std::string_view symbol);

// Our wrapper for the real function `real` that the driver returned for `api`; nullptr when
// `real` is none of the hooked variants of `api`.
void* wrapper_for_real(std::string_view api, void* real);

}  // namespace tidepool::intercept
