// Walks the stack with _Unwind_Backtrace, skipping the frames of our own library.
#include "runtime/call_stack.h"

#include <link.h>
#include <unwind.h>

#include <algorithm>

namespace tidepool::runtime {
namespace {

struct OwnRange {
  uintptr_t low = 0, high = 0;
};

// The loaded segments of the object this code lives in (libtidepool.so, or a test binary).
OwnRange own_range() {
  static const OwnRange range = [] {
    OwnRange r;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* out) {
          const auto self = reinterpret_cast<uintptr_t>(&own_range);
          OwnRange candidate{UINTPTR_MAX, 0};
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr)& ph = info->dlpi_phdr[i];
            if (ph.p_type != PT_LOAD) continue;
            candidate.low = std::min<uintptr_t>(candidate.low, info->dlpi_addr + ph.p_vaddr);
            candidate.high = std::max<uintptr_t>(candidate.high, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
          }
          if (self < candidate.low || self >= candidate.high) return 0;
          *static_cast<OwnRange*>(out) = candidate;
          return 1;
        },
        &r);
    return r;
  }();
  return range;
}

struct Walk {
  std::span<uint64_t, kMaxStackFrames> frames;
  size_t count = 0;
  OwnRange ours;
  bool skip_library;
};

_Unwind_Reason_Code on_frame(_Unwind_Context* context, void* arg) {
  auto& walk = *static_cast<Walk*>(arg);
  const uintptr_t ip = _Unwind_GetIP(context);
  if (ip == 0) return _URC_END_OF_STACK;
  if (walk.skip_library && ip >= walk.ours.low && ip < walk.ours.high) return _URC_NO_REASON;
  walk.skip_library = false;  // from the first foreign frame on, keep everything
  walk.frames[walk.count++] = ip;
  return walk.count == walk.frames.size() ? _URC_END_OF_STACK : _URC_NO_REASON;
}

}  // namespace

size_t capture_call_stack(std::span<uint64_t, kMaxStackFrames> frames) {
  Walk walk{frames, 0, own_range(), true};
  _Unwind_Backtrace(on_frame, &walk);
  return walk.count;
}

}  // namespace tidepool::runtime
