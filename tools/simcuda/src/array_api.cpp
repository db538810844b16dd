// cuArrayCreate, cuArray3DCreate, cuArrayDestroy, cuMipmappedArrayCreate and
// cuMipmappedArrayDestroy (see arrays.h for what simcuda makes of arrays).
#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/arrays.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/context.h"

using namespace simcuda;

namespace {

template <class Handle>
CUresult create(Handle* out, const CUDA_ARRAY3D_DESCRIPTOR* desc, unsigned levels) {
  Context* ctx = nullptr;
  if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
  if (out == nullptr || desc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
  void* handle = nullptr;
  if (const CUresult r = create_array(*desc, levels, handle); r != CUDA_SUCCESS) return r;
  *out = static_cast<Handle>(handle);
  return CUDA_SUCCESS;
}

CUresult destroy(void* handle, bool mipmapped) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
  return destroy_array(handle, mipmapped);
}

}  // namespace

SIMCUDA_API CUresult cuArrayCreate_v2(CUarray* pHandle, const CUDA_ARRAY_DESCRIPTOR* pAllocateArray) {
  return guard([&] {
    if (pAllocateArray == nullptr) return CUDA_ERROR_INVALID_VALUE;
    const CUDA_ARRAY_DESCRIPTOR& d = *pAllocateArray;
    const CUDA_ARRAY3D_DESCRIPTOR desc{d.Width, d.Height, 0, d.Format, d.NumChannels, 0};
    return create(pHandle, &desc, 0);
  });
}

SIMCUDA_API CUresult cuArray3DCreate_v2(CUarray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* pAllocateArray) {
  return guard([&] { return create(pHandle, pAllocateArray, 0); });
}

SIMCUDA_API CUresult cuArrayDestroy(CUarray hArray) {
  return guard([&] { return destroy(hArray, false); });
}

SIMCUDA_API CUresult cuMipmappedArrayCreate(CUmipmappedArray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* pMipmappedArrayDesc,
                                            unsigned int numMipmapLevels) {
  return guard([&] {
    if (numMipmapLevels == 0) return CUDA_ERROR_INVALID_VALUE;
    return create(pHandle, pMipmappedArrayDesc, numMipmapLevels);
  });
}

SIMCUDA_API CUresult cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
  return guard([&] { return destroy(hMipmappedArray, true); });
}
