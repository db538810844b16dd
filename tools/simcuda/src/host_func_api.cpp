// cuLaunchHostFunc and cuStreamAddCallback: host functions run in stream order on the stream's
// worker and take no simulated time. As on a real driver, they must not call the CUDA API.
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

CUresult host_func(CUstream handle, CUhostFn fn, void* user_data, bool per_thread) {
  if (fn == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  enqueue(*stream, Engine::none, 0, [fn, user_data](Op&) { fn(user_data); });
  return CUDA_SUCCESS;
}

CUresult callback(CUstream handle, CUstreamCallback fn, void* user_data, unsigned flags, bool per_thread) {
  if (fn == nullptr || flags != 0) return CUDA_ERROR_INVALID_VALUE;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  enqueue(*stream, Engine::none, 0, [fn, user_data, handle](Op&) { fn(handle, CUDA_SUCCESS, user_data); });
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData) {
  return guard([&] { return host_func(hStream, fn, userData, false); });
}
SIMCUDA_API CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void* userData) {
  return guard([&] { return host_func(hStream, fn, userData, true); });
}
SIMCUDA_API CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback_fn, void* userData,
                                         unsigned int flags) {
  return guard([&] { return callback(hStream, callback_fn, userData, flags, false); });
}
SIMCUDA_API CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback_fn, void* userData,
                                              unsigned int flags) {
  return guard([&] { return callback(hStream, callback_fn, userData, flags, true); });
}
