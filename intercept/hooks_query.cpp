// Hooks of the calls that ask about, or export, an allocation's address: such an allocation must
// keep its address forever, so the runtime will never move it (the query is recorded, and the
// optimizer keeps the buffer resident from then on).
//
// A buffer the optimizer served from its arena or swap space is not a driver allocation of its
// own: asked about it, the driver would describe the arena or the reservation. So its range is
// answered from tidepool's own table (the base and size the program asked for), a buffer in the
// swap space is brought back before the driver answers anything else about it, and exporting it
// for another process is refused (the handle would name the whole arena, and the importer would
// map the wrong address): one warning, CUDA_ERROR_NOT_SUPPORTED, never a silently wrong handle.
// The recorded query keeps the buffer out of the runtime's plans from then on.
#include <cstdio>
#include <optional>

#include "intercept/hook_abi.h"
#include "intercept/optimize_hooks.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

// Records the query of the allocation holding `address` and keeps it resident; returns its range.
std::optional<runtime::LiveRange> note_query(uint64_t address, trace::QueryKind kind) {
  runtime::Recorder* rec = recorder();
  if (rec == nullptr) return std::nullopt;
  std::optional<runtime::LiveRange> range = state().by_address.find_range(address);
  if (range) {
    rec->record(trace::AddressQuery{range->alloc_id, kind});
    optimize_keep_resident(range->alloc_id);
  }
  return range;
}

bool served(const std::optional<runtime::LiveRange>& range) { return range && range->served_by_runtime; }

// The answer tidepool gives for a range attribute of a buffer it served; false for other attributes.
bool answer_range(const runtime::LiveRange& range, CUpointer_attribute attribute, void* data) {
  if (attribute == CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) {
    *static_cast<CUdeviceptr*>(data) = range.base;
    return true;
  }
  if (attribute == CU_POINTER_ATTRIBUTE_RANGE_SIZE) {
    *static_cast<size_t*>(data) = range.size;
    return true;
  }
  return false;
}

CUresult refuse_export(const char* call) {
  static bool warned = false;
  if (!warned) {
    warned = true;
    std::fprintf(stderr,
                 "tidepool: %s on a buffer that --optimize placed in its own memory: refused (the handle would "
                 "name tidepool's arena); the buffer is kept out of later plans\n",
                 call);
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace

CUresult on_cuMemGetAddressRange(const Real<PFN_cuMemGetAddressRange_v3020>& real, CUdeviceptr* base, size_t* size,
                                 CUdeviceptr ptr) {
  const auto range = note_query(ptr, trace::QueryKind::get_address_range);
  if (!served(range)) return real(base, size, ptr);
  if (base != nullptr) *base = range->base;
  if (size != nullptr) *size = range->size;
  return CUDA_SUCCESS;
}

CUresult on_cuPointerGetAttribute(const Real<PFN_cuPointerGetAttribute_v4000>& real, void* data,
                                  CUpointer_attribute attribute, CUdeviceptr ptr) {
  const auto range = note_query(ptr, trace::QueryKind::pointer_attribute);
  if (served(range) && data != nullptr && answer_range(*range, attribute, data)) return CUDA_SUCCESS;
  return real(data, attribute, ptr);
}

CUresult on_cuPointerGetAttributes(const Real<PFN_cuPointerGetAttributes_v7000>& real, unsigned int count,
                                   CUpointer_attribute* attributes, void** data, CUdeviceptr ptr) {
  const auto range = note_query(ptr, trace::QueryKind::pointer_attribute);
  const CUresult r = real(count, attributes, data, ptr);
  if (r == CUDA_SUCCESS && served(range)) {
    for (unsigned i = 0; i < count; ++i) answer_range(*range, attributes[i], data[i]);
  }
  return r;
}

CUresult on_cuIpcGetMemHandle(const Real<PFN_cuIpcGetMemHandle_v4010>& real, CUipcMemHandle* handle, CUdeviceptr ptr) {
  if (served(note_query(ptr, trace::QueryKind::ipc_handle))) return refuse_export("cuIpcGetMemHandle");
  return real(handle, ptr);
}

CUresult on_cuMemExportToShareableHandle(const Real<PFN_cuMemExportToShareableHandle_v10020>& real, void* shareable,
                                         CUmemGenericAllocationHandle handle, CUmemAllocationHandleType type,
                                         unsigned long long flags) {
  const CUresult r = real(shareable, handle, type, flags);
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
