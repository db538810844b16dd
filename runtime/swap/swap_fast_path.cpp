// ensure_resident without the lock while every buffer is resident: a per-thread copy of the index
// of buffers (refreshed, under the lock, only when a buffer came or went), the buffer's use tick,
// the lock-free check that the stream is already one of its users, and the host copy of a buffer
// the work may write marked stale.
#include <algorithm>

#include "runtime/swap/swap_space_impl.h"
#include "runtime/thread_scratch.h"

namespace tidepool::runtime {
namespace {

// Versions are unique across all swap spaces, so a thread's copy never passes for another's.
std::atomic<uint64_t> g_next_version{1};

struct ThreadIndex {
  uint64_t version = 0;
  std::shared_ptr<const std::vector<IndexEntry>> entries;
};

SwapBuffer* find_in(const std::vector<IndexEntry>& entries, CUdeviceptr address) {
  auto it = std::upper_bound(entries.begin(), entries.end(), address,
                             [](CUdeviceptr a, const IndexEntry& e) { return a < e.begin; });
  if (it == entries.begin()) return nullptr;
  --it;
  return address - it->begin < it->bytes ? it->buffer : nullptr;
}

}  // namespace

void SwapSpace::Impl::publish_index() {
  auto entries = std::make_shared<std::vector<IndexEntry>>();
  entries->reserve(buffers.size());
  for (const auto& [address, buffer] : buffers) entries->push_back({address, buffer->bytes, buffer.get()});
  index = std::move(entries);
  index_version.store(g_next_version.fetch_add(1), std::memory_order_release);
}

SwapSpace::Impl::FastPath SwapSpace::Impl::try_fast_path(std::span<const CUdeviceptr> addresses,
                                                         std::span<const CUdeviceptr> only_read,
                                                         CUstream stream, bool all_ours) {
  if (absent.load(std::memory_order_acquire) != 0) return FastPath::slow;
  const auto lease = ThreadScratch<ThreadIndex>::get();
  ThreadIndex& mine = *lease;
  if (mine.version != index_version.load(std::memory_order_acquire)) {
    const std::lock_guard lock(mutex);
    mine.entries = index;
    mine.version = index_version.load(std::memory_order_relaxed);
  }
  for (const CUdeviceptr address : addresses) {
    SwapBuffer* buffer = find_in(*mine.entries, address);
    if (buffer == nullptr) {
      if (all_ours) return FastPath::not_ours;
      continue;
    }
    if (!buffer->users.known(stream)) return FastPath::slow;
    buffer->last_use.store(++use_clock, std::memory_order_relaxed);
    // Written only when it changes: the line stays shared between the threads that launch.
    if (buffer->host_current.load(std::memory_order_relaxed) &&
        std::find(only_read.begin(), only_read.end(), address) == only_read.end())
      buffer->host_current.store(false, std::memory_order_release);
  }
  return FastPath::resident;
}

}  // namespace tidepool::runtime
