// What a hook receives: the real driver function of the exact symbol the program called, and
// whether that symbol is the per-thread-default-stream variant. Also declares every hook
// `on_<api>` with the signature its PFN_ type dictates, straight from the hook list, so that a
// missing or mistyped hook is a compile or link error.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>

#include <utility>

#include "intercept/hook_list.h"

namespace tidepool::intercept {

enum class StreamMode { legacy, per_thread };

// Whether the program's own call was made in the current hook, and what the driver answered: a
// hook that fails midway (an exception, host memory exhausted) returns that answer, or makes the
// call then (exports.cpp). Trivially destructible: usable from exit handlers.
struct DriverAnswer {
  bool given = false;
  CUresult result = CUDA_SUCCESS;
};
inline thread_local DriverAnswer t_driver_answer;

template <class Pfn>
struct Real {
  Pfn fn;
  StreamMode mode;

  // Makes the program's call.
  template <class... Args>
  CUresult operator()(Args&&... args) const {
    const CUresult result = fn(std::forward<Args>(args)...);
    t_driver_answer = {true, result};
    return result;
  }

  // The stream a call on `stream` really uses: handle 0 means the per-thread default stream in
  // the _ptsz/_ptds variants and the legacy default stream otherwise.
  CUstream effective_stream(CUstream stream) const {
    if (stream == nullptr && mode == StreamMode::per_thread) return CU_STREAM_PER_THREAD;
    return stream;
  }
};

// The type of the hook for a driver function of type Pfn.
template <class Pfn>
struct HookOf;
template <class R, class... Args>
struct HookOf<R(CUDAAPI*)(Args...)> {
  using type = R(const Real<R(CUDAAPI*)(Args...)>&, Args...);
};

#define TIDEPOOL_DECLARE_HOOK(api, symbol, version, mode) HookOf<PFN_##api##_##version>::type on_##api;
TIDEPOOL_HOOK_LIST(TIDEPOOL_DECLARE_HOOK)
#undef TIDEPOOL_DECLARE_HOOK

}  // namespace tidepool::intercept
