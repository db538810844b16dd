// cuStreamCreate(WithPriority), cuStreamDestroy, cuStreamSynchronize, cuStreamQuery,
// cuStreamWaitEvent and the stream getters, with their _ptsz forms.
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/event.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

CUresult create(CUstream* phStream, unsigned flags, int priority) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  if (phStream == nullptr || (flags & ~unsigned{CU_STREAM_NON_BLOCKING}) != 0) return CUDA_ERROR_INVALID_VALUE;
  priority = priority > 0 ? 0 : (priority < -5 ? -5 : priority);
  *phStream = reinterpret_cast<CUstream>(&create_stream(*ctx, flags, priority));
  return CUDA_SUCCESS;
}

CUresult synchronize(CUstream handle, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, true); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, true); r != CUDA_SUCCESS) return r;
  synchronize_stream(*stream);
  return CUDA_SUCCESS;
}

CUresult query(CUstream handle, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  const OpPtr last = last_op(*stream);
  return last == nullptr || last->done.load() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

CUresult wait_event(CUstream handle, CUevent event, unsigned flags, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (flags != 0 && flags != CU_EVENT_WAIT_EXTERNAL) return CUDA_ERROR_INVALID_VALUE;
  OpPtr record;
  if (const CUresult r = latest_record(event, record); r != CUDA_SUCCESS) return r;
  if (record == nullptr) return CUDA_SUCCESS;  // never recorded: nothing to wait for
  const OpPtr waits[] = {record};
  enqueue(*stream, Engine::none, 0, nullptr, waits);
  return CUDA_SUCCESS;
}

template <class Getter>
CUresult get(CUstream handle, bool per_thread, Getter getter) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  return getter(*stream);
}

}  // namespace

SIMCUDA_API CUresult cuStreamCreate(CUstream* phStream, unsigned int Flags) {
  return guard([&] { return create(phStream, Flags, 0); });
}

SIMCUDA_API CUresult cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  return guard([&] { return create(phStream, flags, priority); });
}

SIMCUDA_API CUresult cuStreamDestroy_v2(CUstream hStream) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    return destroy_stream(hStream);
  });
}

SIMCUDA_API CUresult cuStreamDestroy(CUstream hStream) { return cuStreamDestroy_v2(hStream); }

SIMCUDA_API CUresult cuStreamSynchronize(CUstream hStream) {
  return guard([&] { return synchronize(hStream, false); });
}
SIMCUDA_API CUresult cuStreamSynchronize_ptsz(CUstream hStream) {
  return guard([&] { return synchronize(hStream, true); });
}

SIMCUDA_API CUresult cuStreamQuery(CUstream hStream) { return guard([&] { return query(hStream, false); }); }
SIMCUDA_API CUresult cuStreamQuery_ptsz(CUstream hStream) { return guard([&] { return query(hStream, true); }); }

SIMCUDA_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return guard([&] { return wait_event(hStream, hEvent, Flags, false); });
}
SIMCUDA_API CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags) {
  return guard([&] { return wait_event(hStream, hEvent, Flags, true); });
}

#define SIMCUDA_STREAM_GETTER(name, type, expression)                                  \
  SIMCUDA_API CUresult name(CUstream hStream, type* out) {                             \
    return guard([&] {                                                                 \
      return get(hStream, false, [&](Stream& s) {                                      \
        if (out == nullptr) return CUDA_ERROR_INVALID_VALUE;                           \
        *out = (expression);                                                           \
        return CUDA_SUCCESS;                                                           \
      });                                                                              \
    });                                                                                \
  }                                                                                    \
  SIMCUDA_API CUresult name##_ptsz(CUstream hStream, type* out) {                      \
    return guard([&] {                                                                 \
      return get(hStream, true, [&](Stream& s) {                                       \
        if (out == nullptr) return CUDA_ERROR_INVALID_VALUE;                           \
        *out = (expression);                                                           \
        return CUDA_SUCCESS;                                                           \
      });                                                                              \
    });                                                                                \
  }

SIMCUDA_STREAM_GETTER(cuStreamGetPriority, int, s.priority)
SIMCUDA_STREAM_GETTER(cuStreamGetFlags, unsigned int, s.flags)
SIMCUDA_STREAM_GETTER(cuStreamGetId, unsigned long long, s.id)
SIMCUDA_STREAM_GETTER(cuStreamGetCtx, CUcontext, s.context.handle())
SIMCUDA_STREAM_GETTER(cuStreamGetDevice, CUdevice, ((void)s, 0))

SIMCUDA_API CUresult cuStreamGetCtx_v2(CUstream hStream, CUcontext* pCtx, CUgreenCtx* pGreenCtx) {
  return guard([&] {
    return get(hStream, false, [&](Stream& s) {
      if (pCtx == nullptr || pGreenCtx == nullptr) return CUDA_ERROR_INVALID_VALUE;
      *pCtx = s.context.handle();
      *pGreenCtx = nullptr;
      return CUDA_SUCCESS;
    });
  });
}
SIMCUDA_API CUresult cuStreamGetCtx_v2_ptsz(CUstream hStream, CUcontext* pCtx, CUgreenCtx* pGreenCtx) {
  return guard([&] {
    return get(hStream, true, [&](Stream& s) {
      if (pCtx == nullptr || pGreenCtx == nullptr) return CUDA_ERROR_INVALID_VALUE;
      *pCtx = s.context.handle();
      *pGreenCtx = nullptr;
      return CUDA_SUCCESS;
    });
  });
}
