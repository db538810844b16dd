// The swap space: device buffers that tidepool may move to host memory and back without their
// address ever changing. Each buffer has its own virtual address reservation at the driver's
// granularity (cuMemAddressReserve + cuMemCreate + cuMemMap + cuMemSetAccess); swapping out copies
// it into pooled pinned host memory on the out copy stream, then unmaps its physical memory (kept for
// reuse by the next swap-in or allocation of the same rounded size rather than released);
// swapping in maps physical memory at the same address again, grants access, and copies back.
//
// Ordering. A swap-out starts after the work already queued on every stream that touched the
// buffer since it was last resident (events recorded on those streams; the copy stream waits on
// them). A swap-in's copy is on the in copy stream; the consumer stream waits on its event
// (ensure_resident). Nothing is ever issued on a stream that is capturing: callers never pass one.
//
// Threading: every member may be called from any thread; it takes an internal lock, except the
// lock-free fast path of ensure_resident when no buffer is absent or in flight (and `stream` is
// already one of the buffer's first users).
//
// Failure: an error from the driver while swapping leaves the buffer resident with its data (a
// swap-out that cannot map, copy or unmap is cancelled; a swap-in that cannot map physical memory
// evicts others or fails with the driver's error, never losing the host copy).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "runtime/driver_api.h"

namespace tidepool::runtime {

struct SwapStats {
  uint64_t buffers = 0;               // live buffers in the swap space
  uint64_t resident_bytes = 0;        // physical device memory mapped now (rounded sizes)
  uint64_t cached_physical_bytes = 0; // unmapped physical memory kept for reuse
  uint64_t swap_outs = 0;
  uint64_t swap_ins = 0;              // planned (asynchronous) swap-ins
  uint64_t on_demand_swap_ins = 0;    // misses: work needed a buffer that was out
  uint64_t evictions = 0;             // rescue
  uint64_t bytes_out = 0;
  uint64_t bytes_in = 0;
  uint64_t pinned_bytes = 0;          // pinned host memory held now
  uint64_t pinned_peak_bytes = 0;
  uint64_t pinned_limit_bytes = 0;
  uint64_t failures = 0;              // driver errors that made a swap fall back
  uint64_t memory_waits = 0;          // pauses before asking again for memory that work needs
  uint64_t physical_creates = 0;      // cuMemCreate calls made (recycling keeps this flat)
  uint64_t pageable_bytes = 0;        // heap memory holding buffers evicted past the pinned limit
};

// One finished transfer, for the trace (device-clock times as DeviceTiming records).
struct SwapEvent {
  // map_deferred: the buffer was allocated without device memory (at_first_use); first_map: that
  // memory was mapped at its first use (no copy: a new buffer holds no data). Neither has times.
  enum class Kind { swap_out, swap_in, eviction, map_deferred, first_map } kind = Kind::swap_out;
  CUdeviceptr address = 0;
  uint64_t bytes = 0;
  uint64_t start_ns = 0;
  uint64_t end_ns = 0;
  bool on_demand = false;
  // Where the device memory went (swap-out, eviction: its unmap) or came back (swap-in: its map)
  // in the caller's order of events (set_sequence_source); 0 without a source.
  uint64_t sequence = 0;
  uint64_t tag = 0;  // the buffer's tag (set_tag): it names the buffer after its release too
};

class SwapSpace {
 public:
  // `context` is the context every call works in (made current by the callers' threads already;
  // the swap space's own streams and events are created in it). `pinned_limit_bytes` bounds the
  // pinned host memory held for swapped-out buffers. Throws std::runtime_error when `context` is
  // not current or the driver cannot give it its granularity, copy stream or events.
  SwapSpace(const DriverApi& api, CUcontext context, uint64_t pinned_limit_bytes);
  ~SwapSpace();  // releases everything it holds (buffers still live stay mapped: the process is ending)
  SwapSpace(const SwapSpace&) = delete;
  SwapSpace& operator=(const SwapSpace&) = delete;

  // The driver's granularity for device memory in this context (bytes; 2 MiB on current GPUs).
  uint64_t granularity() const;

  // When a new buffer's device memory is mapped: now, or at its first ensure_resident (or
  // keep_resident). A buffer allocated at_first_use holds no device memory until work needs it, as
  // a plan that charges it from its first use counts on; only the caller can know that every
  // access to it will pass through ensure_resident first (one a launch could reach unseen would fault).
  enum class Mapping { now, at_first_use };
  // A new buffer of `bytes` with its own reservation; CUDA_ERROR_OUT_OF_MEMORY changes nothing.
  CUresult allocate(uint64_t bytes, CUdeviceptr* address, Mapping mapping = Mapping::now);
  // The program freed the buffer at its base address: after the work queued on `stream` (0 = now,
  // once its swaps are done), its memory and reservation go back. False if not ours.
  bool release(CUdeviceptr address, CUstream stream = nullptr);
  // Names the buffer at base address `address` in its SwapEvents (e.g. the caller's allocation id):
  // reports come late, possibly after the buffer was released and its address reused. A buffer
  // allocated at_first_use and not mapped yet reports its deferral (SwapEvent::Kind::map_deferred)
  // from here, numbered now: call it once the caller has recorded the allocation.
  void set_tag(CUdeviceptr address, uint64_t tag);
  // The base address and requested size of the buffer holding `address`, if it is one of ours.
  std::optional<std::pair<CUdeviceptr, uint64_t>> find(CUdeviceptr address) const;

  // Before work on `stream` touches the buffer holding `address`: if it is out, it is swapped in
  // synchronously (*missed = true); if its swap-in is in flight, `stream` waits on it; if it was
  // never mapped (at_first_use), its memory is mapped now (not a miss: there is nothing to copy).
  // Records `stream` as a user of the buffer (for swap-out ordering and least-recently-used
  // eviction). CUDA_ERROR_NOT_FOUND when `address` is not in one of ours; the driver's error (the
  // buffer still out, its host copy intact) when it cannot be brought back. Unless the work only
  // reads the buffer (Use::reads: a copy from it), its host copy stops being current.
  enum class Use { reads, may_write };
  CUresult ensure_resident(CUdeviceptr address, CUstream stream, bool* missed = nullptr,
                           Use use = Use::may_write);
  // The same for all the buffers one launch touches (addresses not in the swap space are skipped):
  // bringing one back may evict idle buffers, never another of these. *missed: any was out.
  // `only_read`: those of `addresses` the work only reads; it may write all the others.
  CUresult ensure_resident(std::span<const CUdeviceptr> addresses, CUstream stream,
                           bool* missed = nullptr, std::span<const CUdeviceptr> only_read = {});

  // Starts an asynchronous swap-out after the work queued so far on the buffer's streams.
  // copy_out = false: the caller expects the host copy to be still current (only reading copies
  // touched it since it came back), so the memory is just unmapped. False when it cannot (pinned
  // limit, driver error, not resident): the buffer then stays resident with its data. A buffer with
  // no current host copy (never copied, or let to work that may write it since: see
  // ensure_resident) is copied out whatever copy_out says.
  bool swap_out(CUdeviceptr address, bool copy_out = true);
  // True when the buffer holding `address` is out: its memory unmapped, its data on the host.
  bool is_out(CUdeviceptr address) const;
  // The device memory (rounded sizes) that making these buffers resident would map: those out or
  // not mapped yet (at_first_use). Addresses not in the swap space count nothing. Takes no lock
  // when every buffer is resident.
  uint64_t bytes_to_map(std::span<const CUdeviceptr> addresses) const;
  // Starts an asynchronous swap-in (no-op when resident or already coming back).
  // CUDA_ERROR_NOT_FOUND when `address` is not in one of ours.
  CUresult swap_in(CUdeviceptr address);

  // The program is about to destroy `stream` (call before the real cuStreamDestroy): an event
  // recorded on it now stands in for it, so later swap-outs and releases still follow its work.
  void forget_stream(CUstream stream);

  // The buffer must never move or leave device memory (referenced indirectly, address exported or
  // queried): it is never swapped out or evicted from now on. One that is absent is brought back
  // (synchronously) before this returns.
  void keep_resident(CUdeviceptr address);

  // Rescue: frees at least `bytes` of device memory by evicting resident buffers that no queued
  // work uses (least recently used first); synchronous. Returns the bytes freed (may be less).
  uint64_t evict(uint64_t bytes);

  // Waits for the oldest swap-out still in flight (the out stream runs them in issue order) and
  // finishes it: its memory unmapped and released to the driver at once. Returns the device bytes
  // that gave back (0: no swap-out in flight, nothing waited for).
  uint64_t finish_oldest_swap_out();

  // Gives the unmapped physical memory kept for reuse back to the driver at once, waiting for
  // nothing; returns the bytes released.
  uint64_t trim();

  // Device memory the swap space holds now: mapped buffers and cached physical memory (rounded sizes).
  uint64_t device_bytes() const;

  // Finishes swap-outs whose copies have completed (unmap, keep the physical memory for reuse)
  // and returns the transfers finished since the last call, less the latest `report_lag` of them
  // unless `everything` (they come with a later call). Cheap when nothing is in flight.
  std::vector<SwapEvent> poll(bool everything = false);
  // How many finished transfers poll() holds back before asking their times (default 0). Asking
  // an event's time may move the host's clock to it (simcuda's simulated clock does), so timing
  // each transfer as soon as it is done would stall the program on it; older ones cost nothing.
  void set_report_lag(size_t transfers);
  // Called, under the swap space's lock, at each unmap and map of a swap to number it among the
  // caller's events (the trace's sequence numbers), so that late reports still land in place.
  void set_sequence_source(uint64_t (*source)());

  SwapStats stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tidepool::runtime
