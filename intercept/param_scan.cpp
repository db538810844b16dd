// Scans launch parameters for pointers into live allocations.
#include "intercept/param_scan.h"

#include <cuda.h>

#include <cstring>

namespace tidepool::intercept {

void note_pointer(runtime::LiveAllocations::Reader& live, uint64_t word, std::vector<trace::Access>& out) {
  const auto hit = live.find(word);
  if (!hit) return;
  for (trace::Access& a : out) {
    if (a.alloc_id == hit->alloc_id) {
      a.interior = a.interior || hit->offset > 0;
      a.offset = std::min(a.offset, hit->offset);
      return;
    }
  }
  out.push_back({hit->alloc_id, hit->offset, hit->offset > 0});
}

bool scan_kernel_params(const runtime::LiveAllocations& map, const FunctionInfo& info, void* const* params,
                        std::vector<trace::Access>& out) {
  if (!info.layout_known) return false;
  if (params == nullptr) return info.params.empty();
  runtime::LiveAllocations::Reader live(map);
  for (size_t i = 0; i < info.params.size(); ++i) {
    const ParamSlot& slot = info.params[i];
    const auto* bytes = static_cast<const uint8_t*>(params[i]);
    if (bytes == nullptr) continue;
    // Words aligned in the packed buffer: a pointer member of a struct sits at such an offset.
    for (uint32_t at = (slot.offset + 7) & ~7u; at + 8 <= slot.offset + slot.size; at += 8) {
      uint64_t word;
      std::memcpy(&word, bytes + (at - slot.offset), sizeof word);
      if (map.may_contain(word)) note_pointer(live, word, out);
    }
  }
  return true;
}

void scan_packed(const runtime::LiveAllocations& map, const void* bytes, uint64_t size, std::vector<trace::Access>& out) {
  if (bytes == nullptr || size < 8) return;
  runtime::LiveAllocations::Reader live(map);
  const auto* p = static_cast<const uint8_t*>(bytes);
  for (uint64_t at = 0; at + 8 <= size; at += 8) {
    uint64_t word;
    std::memcpy(&word, p + at, sizeof word);
    if (map.may_contain(word)) note_pointer(live, word, out);
  }
}

bool scan_extra(const runtime::LiveAllocations& map, void* const* extra, std::vector<trace::Access>& out) {
  if (extra == nullptr) return false;
  const void* buffer = nullptr;
  uint64_t size = 0;
  bool have_size = false;
  for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
      buffer = extra[i + 1];
    } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
      size = *static_cast<const size_t*>(extra[i + 1]);
      have_size = true;
    } else {
      return false;  // an option we do not know: its argument layout is unknown too
    }
  }
  if (buffer == nullptr || !have_size) return false;
  scan_packed(map, buffer, size, out);
  return true;
}

}  // namespace tidepool::intercept
