// What happens when a hook fails midway: an exception (in practice std::bad_alloc, host memory
// exhausted) must not cross the driver's C interface into the program. The wrapper runs each hook
// through run_hook(), which catches it and gives the program the driver's own answer: the one its
// call already got inside the hook (t_driver_answer, noted by Real), or the call made then.
// tidepool's bookkeeping of that one call may be incomplete; one warning says so.
#pragma once

#include <cuda.h>

#include <string_view>

#include "intercept/hook_abi.h"

namespace tidepool::intercept {

// Says once per process which hook failed and why (the exception being handled).
void report_failed_hook(std::string_view symbol);

// Calls hook(real, args...) for the program's call; symbol() names it, asked only on failure.
template <class Pfn, class Symbol, class Hook, class... Args>
CUresult run_hook(Symbol&& symbol, const Real<Pfn>& real, Hook&& hook, Args... args) {
  t_driver_answer = {};
  try {
    return hook(real, args...);
  } catch (...) {
    report_failed_hook(symbol());
    return t_driver_answer.given ? t_driver_answer.result : real.fn(args...);
  }
}

}  // namespace tidepool::intercept
