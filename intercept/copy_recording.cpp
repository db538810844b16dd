// Range resolution and payload scanning for copies.
#include "intercept/copy_recording.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {

trace::Range side_range(const CopySide& side, bool& device) {
  switch (side.type) {
    case CU_MEMORYTYPE_ARRAY: {
      device = true;
      const auto array = state().arrays.find(side.base);
      return {array ? array->alloc_id : 0, array ? side.start : side.base, side.span};
    }
    case CU_MEMORYTYPE_HOST:
      device = false;
      return {0, side.base + side.start, side.span};
    default: {  // device or unified: whatever the live map says
      const trace::Range r = range_of(side.base + side.start, side.span);
      device = side.type == CU_MEMORYTYPE_DEVICE || r.alloc_id != 0;
      return r;
    }
  }
}

trace::CopyKind copy_kind(bool src_device, bool dst_device, bool any_array) {
  if (any_array) return trace::CopyKind::array;
  if (src_device && dst_device) return trace::CopyKind::device_to_device;
  if (src_device) return trace::CopyKind::device_to_host;
  if (dst_device) return trace::CopyKind::host_to_device;
  return trace::CopyKind::host_to_host;
}

void record_indirect_refs(runtime::Recorder& rec, uint64_t op_id, const void* host, uint64_t bytes, uint64_t dst) {
  struct Found {};
  const auto lease = runtime::ThreadScratch<std::vector<trace::Access>, Found>::get();
  std::vector<trace::Access>& found = *lease;
  found.clear();
  // Device words are 8-byte aligned in the destination; skip to the first one.
  const uint64_t skip = (8 - dst % 8) % 8;
  if (bytes <= skip) return;
  scan_packed(state().by_address, static_cast<const uint8_t*>(host) + skip, bytes - skip, found);
  for (const trace::Access& a : found) {
    rec.record(trace::IndirectRef{a.alloc_id, op_id});
    optimize_keep_resident(a.alloc_id);
  }
}

trace::Copy linear_copy(trace::CopyKind kind, uint64_t src, uint64_t dst, uint64_t bytes, bool async) {
  trace::Copy c;
  c.kind = kind;
  c.dims = 1;
  c.src = range_of(src, bytes);
  c.dst = range_of(dst, bytes);
  c.bytes = bytes;
  c.async = async;
  return c;
}

}  // namespace tidepool::intercept
