// The cuCtx* and cuDevicePrimaryCtx* entry points.
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

CUresult check_device(CUdevice dev) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  return dev == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult create_and_push(CUcontext* pctx, unsigned flags, CUdevice dev) {
  if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
  if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context& ctx = create_context(flags);
  if (!push_current(&ctx)) {
    destroy_context(ctx);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  *pctx = ctx.handle();
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return guard([&] { return create_and_push(pctx, flags, dev); });
}

SIMCUDA_API CUresult cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam*, int numParams, unsigned int flags,
                                    CUdevice dev) {
  return guard([&] { return numParams < 0 ? CUDA_ERROR_INVALID_VALUE : create_and_push(pctx, flags, dev); });
}

SIMCUDA_API CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams*, unsigned int flags, CUdevice dev) {
  return guard([&] { return create_and_push(pctx, flags, dev); });
}

SIMCUDA_API CUresult cuCtxDestroy_v2(CUcontext handle) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Context* ctx = find_context(handle);
    if (ctx == nullptr || ctx->primary) return CUDA_ERROR_INVALID_CONTEXT;
    synchronize_context(*ctx);
    forget_current(ctx);
    release_context_streams(*ctx);
    destroy_context(*ctx);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxSetCurrent(CUcontext handle) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Context* ctx = nullptr;
    if (handle != nullptr && (ctx = find_context(handle)) == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    pop_current();
    if (ctx != nullptr) push_current(ctx);  // fits: one was just popped
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetCurrent(CUcontext* pctx) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
    Context* ctx = current_context();
    *pctx = ctx != nullptr ? ctx->handle() : nullptr;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxPushCurrent_v2(CUcontext handle) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Context* ctx = find_context(handle);
    if (ctx == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    return push_current(ctx) ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  });
}

SIMCUDA_API CUresult cuCtxPopCurrent_v2(CUcontext* pctx) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Context* ctx = current_context();
    if (ctx == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (pctx != nullptr) *pctx = ctx->handle();
    pop_current();
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetDevice(CUdevice* device) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetFlags(unsigned int* flags) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (flags == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *flags = ctx->flags;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetId(CUcontext handle, unsigned long long* ctxId) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (handle != nullptr && (ctx = find_context(handle)) == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (ctxId == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *ctxId = ctx->id;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetApiVersion(CUcontext handle, unsigned int* version) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (handle != nullptr && find_context(handle) == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (handle == nullptr && current_context() == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (version == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *version = 3020;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxSynchronize() {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    synchronize_context(*ctx);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxSynchronize_v2(CUcontext handle) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    ctx = handle != nullptr ? find_context(handle) : current_context();
    if (ctx == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    synchronize_context(*ctx);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (leastPriority != nullptr) *leastPriority = 0;
    if (greatestPriority != nullptr) *greatestPriority = -5;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  return guard([&] {
    if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
    if (pctx == nullptr) return CUDA_ERROR_INVALID_VALUE;
    retain_primary();
    *pctx = primary_context().handle();
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  return guard([&] {
    if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
    return release_primary() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
  });
}

SIMCUDA_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  return guard([&] {
    if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
    if (flags == nullptr || active == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *flags = primary_context().flags;
    *active = primary_active() ? 1 : 0;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  return guard([&] {
    if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
    primary_context().flags = flags;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  return guard([&] {
    if (const CUresult r = check_device(dev); r != CUDA_SUCCESS) return r;
    synchronize_context(primary_context());
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuCtxGetDevice_v2(CUdevice* device, CUcontext handle) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    Context* ctx = handle != nullptr ? find_context(handle) : current_context();
    if (ctx == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
    if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
    *device = 0;
    return CUDA_SUCCESS;
  });
}

// The oldest ABI versions whose signatures are those of the newer ones.
SIMCUDA_API CUresult cuCtxDestroy(CUcontext ctx) { return cuCtxDestroy_v2(ctx); }
SIMCUDA_API CUresult cuCtxPushCurrent(CUcontext ctx) { return cuCtxPushCurrent_v2(ctx); }
SIMCUDA_API CUresult cuCtxPopCurrent(CUcontext* pctx) { return cuCtxPopCurrent_v2(pctx); }
SIMCUDA_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
SIMCUDA_API CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return cuDevicePrimaryCtxReset_v2(dev); }
SIMCUDA_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}
