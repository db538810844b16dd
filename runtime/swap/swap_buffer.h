// One buffer of the swap space as the swap space sees it: where it lives now, its host copy, the
// streams that used it, and the transfers it is part of.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/swap/pinned_pool.h"
#include "runtime/swap/swap_space.h"
#include "runtime/swap/user_streams.h"

namespace tidepool::runtime {

enum class Residency {
  resident,  // mapped, data on the device
  leaving,   // mapped, its copy to host (or just its unmap) is queued on the copy stream
  out,       // unmapped, data in the host copy
  arriving,  // mapped again, its copy back is queued on the copy stream
  reserved,  // allocated with Mapping::at_first_use: its address only, no memory and no data yet
};

// The host side of a buffer: a pooled pinned block, or (rescue past the pinned limit) heap memory.
struct HostCopy {
  PinnedBlock pinned;
  std::unique_ptr<std::byte[]> pageable;

  void* data() const { return pinned.data != nullptr ? pinned.data : pageable.get(); }
  bool empty() const { return data() == nullptr; }
};

struct SwapBuffer {
  CUdeviceptr address = 0;
  uint64_t bytes = 0;         // as requested
  uint64_t mapped_bytes = 0;  // rounded up to the granularity: its reservation and physical size
  CUmemGenericAllocationHandle physical = 0;  // 0 while unmapped
  Residency residency = Residency::resident;
  HostCopy host;
  // The host copy holds the buffer's content now: set when a copy either way finished, cleared
  // when work that may write the buffer is let at it (without the lock, on the fast path), and
  // when the copy is given up. A swap-out skips its copy only while this holds.
  std::atomic<bool> host_current{false};
  UserStreams users;            // streams that used it since it last became resident
  std::vector<CUevent> fences;  // pooled events recorded on users that are gone (or at its release)
  std::atomic<uint64_t> last_use{0};  // the use clock at its latest ensure_resident
  uint64_t tag = 0;  // set_tag: names it in its SwapEvents
  bool kept_resident = false;
  bool released = false;
  unsigned transfers = 0;          // its transfers queued on the copy stream and not finished
  CUevent latest_copy = nullptr;   // the end event of the latest of those
};

// A transfer queued on the copy stream, finished once its end event has completed.
struct Transfer {
  SwapBuffer* buffer = nullptr;
  SwapEvent::Kind kind = SwapEvent::Kind::swap_out;
  CUevent start = nullptr;
  CUevent end = nullptr;
  uint64_t bytes = 0;  // copied (0: a swap-out whose host copy was still current)
  bool on_demand = false;
  uint64_t sequence = 0;  // swap-in: numbered when its memory was mapped
};

}  // namespace tidepool::runtime
