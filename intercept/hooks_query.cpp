// Hooks of the calls that ask about, or export, an allocation's address: such an allocation must
// keep its address forever, so the runtime will never move it.
#include "intercept/hook_abi.h"
#include "intercept/optimize_hooks.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

void record_query(uint64_t address, trace::QueryKind kind) {
  runtime::Recorder* rec = recorder();
  if (rec == nullptr) return;
  if (const auto hit = state().by_address.find(address)) {
    rec->record(trace::AddressQuery{hit->alloc_id, kind});
    optimize_keep_resident(hit->alloc_id);
  }
}

}  // namespace

CUresult on_cuMemGetAddressRange(const Real<PFN_cuMemGetAddressRange_v3020>& real, CUdeviceptr* base, size_t* size,
                                 CUdeviceptr ptr) {
  const CUresult r = real.fn(base, size, ptr);
  if (r == CUDA_SUCCESS) record_query(ptr, trace::QueryKind::get_address_range);
  return r;
}

CUresult on_cuPointerGetAttribute(const Real<PFN_cuPointerGetAttribute_v4000>& real, void* data,
                                  CUpointer_attribute attribute, CUdeviceptr ptr) {
  const CUresult r = real.fn(data, attribute, ptr);
  if (r == CUDA_SUCCESS) record_query(ptr, trace::QueryKind::pointer_attribute);
  return r;
}

CUresult on_cuIpcGetMemHandle(const Real<PFN_cuIpcGetMemHandle_v4010>& real, CUipcMemHandle* handle, CUdeviceptr ptr) {
  const CUresult r = real.fn(handle, ptr);
  if (r == CUDA_SUCCESS) record_query(ptr, trace::QueryKind::ipc_handle);
  return r;
}

CUresult on_cuMemExportToShareableHandle(const Real<PFN_cuMemExportToShareableHandle_v10020>& real, void* shareable,
                                         CUmemGenericAllocationHandle handle, CUmemAllocationHandleType type,
                                         unsigned long long flags) {
  const CUresult r = real.fn(shareable, handle, type, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      if (const auto physical = state().physical.find(handle)) {
        rec->record(trace::AddressQuery{physical->alloc_id, trace::QueryKind::export_shareable});
      }
    }
  }
  return r;
}

}  // namespace tidepool::intercept
