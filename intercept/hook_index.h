// A dense index per hooked ABI symbol, generated from the hook list (k_ + the symbol: pasted, so
// that cuda.h macros such as cuGetProcAddress -> cuGetProcAddress_v2 do not rename it).
#pragma once

#include <cstddef>

#include "intercept/hook_list.h"

namespace tidepool::intercept {

enum class HookIndex : std::size_t {
#define TIDEPOOL_HOOK_ENUM(api, symbol, version, mode) k_##symbol,
  TIDEPOOL_HOOK_LIST(TIDEPOOL_HOOK_ENUM)
#undef TIDEPOOL_HOOK_ENUM
      count
};

inline constexpr std::size_t kHookCount = static_cast<std::size_t>(HookIndex::count);

}  // namespace tidepool::intercept
