// Rescue: making room on the device by evicting idle buffers to host memory, least recently used
// first, synchronously, and giving their physical memory back to the driver.
#include <algorithm>
#include <new>

#include "runtime/swap/swap_space_impl.h"

namespace tidepool::runtime {

CUresult SwapSpace::Impl::wait_for_users(SwapBuffer& buffer) {
  for (CUstream user : buffer.users.all()) {
    if (const CUresult r = api.event_record(scratch, user); r != CUDA_SUCCESS) return r;
    if (const CUresult r = api.event_synchronize(scratch); r != CUDA_SUCCESS) return r;
  }
  for (CUevent fence : buffer.fences)
    if (const CUresult r = api.event_synchronize(fence); r != CUDA_SUCCESS) return r;
  return CUDA_SUCCESS;
}

uint64_t SwapSpace::Impl::evict(uint64_t bytes, const SwapBuffer* spare) {
  if (!releasing.empty()) finish_releases(true);
  uint64_t freed = physical.release_all();
  std::vector<SwapBuffer*> idle;
  for (auto& [address, buffer] : buffers)
    if (buffer.get() != spare && std::find(launch.begin(), launch.end(), buffer.get()) == launch.end() &&
        buffer->residency == Residency::resident && !buffer->kept_resident &&
        buffer->transfers == 0)
      idle.push_back(buffer.get());
  std::sort(idle.begin(), idle.end(), [](const SwapBuffer* a, const SwapBuffer* b) { return a->last_use.load() < b->last_use.load(); });
  for (SwapBuffer* buffer : idle) {
    if (freed >= bytes) break;
    if (evict_one(*buffer)) freed += buffer->mapped_bytes;
  }
  return freed;
}

bool SwapSpace::Impl::evict_one(SwapBuffer& buffer) {
  if (wait_for_users(buffer) != CUDA_SUCCESS) {
    ++counts.failures;
    return false;
  }
  if (buffer.host.empty() && !take_pinned(buffer)) {  // past the pinned limit: heap memory will do
    buffer.host.pageable.reset(new (std::nothrow) std::byte[buffer.bytes]);
    if (buffer.host.pageable == nullptr) return false;
    counts.pageable_bytes += buffer.bytes;
  }
  CUevent start = events.take();
  CUevent end = events.take();
  CUresult r = start != nullptr && end != nullptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  if (r == CUDA_SUCCESS) r = api.event_record(start, copy_stream);
  if (r == CUDA_SUCCESS) r = api.memcpy_dtoh_async(buffer.host.data(), buffer.address, buffer.bytes, copy_stream);
  if (r == CUDA_SUCCESS) r = api.event_record(end, copy_stream);
  if (r == CUDA_SUCCESS) r = api.event_synchronize(end);
  if (r == CUDA_SUCCESS && !unmap(buffer, false)) r = CUDA_ERROR_UNKNOWN;
  if (r != CUDA_SUCCESS) {
    ++counts.failures;
    api.stream_synchronize(copy_stream);  // nothing of ours may still write into the host copy
    drop_host(buffer);
    events.give(start);
    events.give(end);
  } else {
    buffer.host_current = true;
    buffer.users.clear();
    for (CUevent fence : buffer.fences) events.give(fence);
    buffer.fences.clear();
    set_residency(buffer, Residency::out);
    ++counts.evictions;
    counts.bytes_out += buffer.bytes;
    report(SwapEvent::Kind::eviction, buffer, start, end, buffer.bytes, false, next_sequence());
  }
  return r == CUDA_SUCCESS;
}

}  // namespace tidepool::runtime
