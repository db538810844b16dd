// The swap space's state and the steps its public calls are made of. Every member function here
// runs with `mutex` held, but try_fast_path.
#pragma once

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "runtime/swap/event_pool.h"
#include "runtime/swap/physical_cache.h"
#include "runtime/swap/pinned_pool.h"
#include "runtime/swap/swap_buffer.h"
#include "runtime/swap/swap_space.h"

namespace tidepool::runtime {

// One buffer in the index that the fast path of ensure_resident searches without the lock.
struct IndexEntry {
  CUdeviceptr begin = 0;
  uint64_t bytes = 0;
  SwapBuffer* buffer = nullptr;
};

struct SwapSpace::Impl {
  Impl(const DriverApi& driver, CUcontext context, uint64_t pinned_limit_bytes);
  ~Impl();

  // Lookups and bookkeeping.
  SwapBuffer* lookup(CUdeviceptr address) const;
  void set_residency(SwapBuffer& buffer, Residency residency);
  void drop_host(SwapBuffer& buffer);
  bool take_pinned(SwapBuffer& buffer);
  // A finished transfer for poll(); takes `start` and `end` (timed later, then given back).
  void report(SwapEvent::Kind kind, const SwapBuffer& buffer, CUevent start, CUevent end, uint64_t bytes,
              bool on_demand, uint64_t sequence);
  uint64_t next_sequence() const { return sequence_source != nullptr ? sequence_source() : 0; }
  // Times all but the latest `keep` reported transfers into `finished`.
  void time_reported(size_t keep);

  // A finished event with no transfer to time (map_deferred, first_map), numbered now.
  void report_untimed(SwapEvent::Kind kind, const SwapBuffer& buffer);

  // Device memory. What the memory is for decides how hard a refusal is fought: an allocation's
  // refusal goes back to the program, which asked and can wait; a prefetch's evicts idle buffers
  // once; work that cannot start without the memory (a miss, a first use) also waits a little
  // and asks again, since the program never asked for memory there and cannot handle a refusal.
  enum class Need { allocation, prefetch, work };
  CUresult map(SwapBuffer& buffer, Need need);
  CUresult take_physical(const SwapBuffer& buffer, Need need, CUmemGenericAllocationHandle* handle);
  CUresult map_at_first_use(SwapBuffer& buffer);  // a reserved buffer becomes resident (no copy)
  bool unmap(SwapBuffer& buffer, bool keep_physical);

  // Ordering against the streams that used a buffer.
  CUresult order_copy_stream_after_users(SwapBuffer& buffer);
  CUresult wait_for_users(SwapBuffer& buffer);
  // A fence on `user` after its work so far, which the buffer's memory waits for before it leaves;
  // the driver refusing one, the host waits for that work now.
  void fence_user(SwapBuffer& buffer, CUstream user);
  void forget_users(SwapBuffer& buffer);

  // The lock-free fast path of ensure_resident (called without the lock; publish_index with it).
  enum class FastPath { resident, not_ours, slow };
  FastPath try_fast_path(std::span<const CUdeviceptr> addresses,
                         std::span<const CUdeviceptr> only_read, CUstream stream, bool all_ours);
  void publish_index();

  // Transfers.
  bool start_swap_out(SwapBuffer& buffer, bool copy_out);
  CUresult start_swap_in(SwapBuffer& buffer, bool on_demand);
  CUresult make_resident(SwapBuffer& buffer, CUstream consumer, bool* missed, Use use);
  // A leaving buffer stays (its swap-out is cancelled); for an arriving one, `consumer` waits.
  void claim_in_flight(SwapBuffer& buffer, std::optional<CUstream> consumer);
  void finish_completed();            // the transfers that completed, then the releases they allow
  void finish_completed_transfers();
  void complete(const Transfer& transfer);
  void finish_releases(bool wait);
  bool finish_release(SwapBuffer& buffer, bool wait);

  // Rescue.
  uint64_t evict(uint64_t bytes, const SwapBuffer* spare);  // spares `spare` and `launch`
  bool evict_one(SwapBuffer& buffer);

  const DriverApi api;
  CUmemAllocationProp prop{};
  CUmemAccessDesc access{};
  uint64_t granularity = 0;

  mutable std::mutex mutex;
  std::atomic<uint64_t> absent{0};  // buffers not resident: leaving, out or arriving
  // Something for poll() or trim() to do: transfers in flight or not reported yet, releases
  // pending, cached physical memory. Set under the lock (note_pending), read without it.
  std::atomic<bool> pending{false};
  void note_pending() { pending.store(true, std::memory_order_release); }
  void update_pending();  // after poll() or trim(): still anything to do?
  EventPool events{api};
  PinnedPool pinned;
  PhysicalCache physical;
  CUstream copy_stream = nullptr;  // device to host: swap-outs and evictions
  CUstream in_stream = nullptr;    // host to device: swap-ins, so that they never queue behind a swap-out
  CUevent origin = nullptr;   // recorded on the copy stream at construction: time zero of SwapEvents
  CUevent scratch = nullptr;  // recorded on a user stream and waited on at once
  std::map<CUdeviceptr, std::unique_ptr<SwapBuffer>> buffers;  // by base address
  std::vector<std::unique_ptr<SwapBuffer>> releasing;          // released, waiting for their work
  std::deque<Transfer> in_flight;
  struct Reported {
    SwapEvent event;
    CUevent start = nullptr;
    CUevent end = nullptr;
  };
  std::deque<Reported> reported;  // finished, not timed yet
  size_t report_lag = 0;
  uint64_t (*sequence_source)() = nullptr;
  std::vector<SwapEvent> finished;
  std::atomic<uint64_t> use_clock{0};
  std::shared_ptr<const std::vector<IndexEntry>> index;  // the buffers, for the fast path
  std::atomic<uint64_t> index_version{0};
  std::vector<SwapBuffer*> launch;  // buffers being made resident together: never evicted
  SwapStats counts;  // the counters, resident_bytes and pageable_bytes; stats() fills in the rest
};

}  // namespace tidepool::runtime
