// Hooks of cuGetProcAddress (how the CUDA runtime obtains every driver function since 11.3): the
// real driver picks the variant (ABI version, per-thread stream flag); when it is one we hook, the
// program gets our wrapper for exactly that variant, which calls the pointer the driver chose.
#include "intercept/hook_abi.h"
#include "intercept/hook_table.h"

namespace tidepool::intercept {
namespace {

void substitute(CUresult r, const char* symbol, void** pfn) {
  if (r != CUDA_SUCCESS || symbol == nullptr || pfn == nullptr) return;
  if (void* ours = wrapper_for_real(symbol, *pfn)) *pfn = ours;
}

}  // namespace

CUresult on_cuGetProcAddress(const Real<PFN_cuGetProcAddress_v11030>& real, const char* symbol, void** pfn,
                             int version, cuuint64_t flags) {
  const CUresult r = real(symbol, pfn, version, flags);
  substitute(r, symbol, pfn);
  return r;
}

CUresult on_cuGetProcAddress(const Real<PFN_cuGetProcAddress_v12000>& real, const char* symbol, void** pfn,
                             int version, cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  const CUresult r = real(symbol, pfn, version, flags, status);
  substitute(r, symbol, pfn);
  return r;
}

}  // namespace tidepool::intercept
