// The swap space's bookkeeping: finding buffers, their residency count, their device mappings
// and host copies, and the device-clock times of finished transfers.
#include <algorithm>
#include <chrono>
#include <thread>

#include "runtime/swap/swap_space_impl.h"

namespace tidepool::runtime {

SwapBuffer* SwapSpace::Impl::lookup(CUdeviceptr address) const {
  auto it = buffers.upper_bound(address);
  if (it == buffers.begin()) return nullptr;
  --it;
  return address - it->first < it->second->bytes ? it->second.get() : nullptr;
}

void SwapSpace::Impl::set_residency(SwapBuffer& buffer, Residency residency) {
  const bool was_absent = buffer.residency != Residency::resident;
  const bool is_absent = residency != Residency::resident;
  buffer.residency = residency;
  if (buffer.released || was_absent == is_absent) return;
  if (is_absent) ++absent;
  else --absent;
}

void SwapSpace::Impl::drop_host(SwapBuffer& buffer) {
  if (buffer.host.pinned.data != nullptr) pinned.give(buffer.host.pinned);
  if (buffer.host.pageable != nullptr) counts.pageable_bytes -= buffer.bytes;
  buffer.host = HostCopy{};
  buffer.host_current = false;
}

bool SwapSpace::Impl::take_pinned(SwapBuffer& buffer) {
  auto block = pinned.take(buffer.bytes);
  if (!block) {
    // Host copies kept for resident buffers are only a shortcut for a later swap-out: give them up.
    for (auto& [address, other] : buffers)
      if (other.get() != &buffer && other->residency == Residency::resident && other->transfers == 0 &&
          other->host.pinned.data != nullptr)
        drop_host(*other);
    block = pinned.take(buffer.bytes);
  }
  if (!block) return false;
  buffer.host.pinned = *block;
  buffer.host_current = false;
  return true;
}

CUresult SwapSpace::Impl::take_physical(const SwapBuffer& buffer, Need need,
                                        CUmemGenericAllocationHandle* handle) {
  CUresult r = physical.take(buffer.mapped_bytes, handle);
  if (r == CUDA_ERROR_OUT_OF_MEMORY && !releasing.empty()) {
    finish_releases(true);  // memory the program freed whose work is still queued
    r = physical.take(buffer.mapped_bytes, handle);
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY && need != Need::allocation &&
      evict(buffer.mapped_bytes, &buffer) > 0)
    r = physical.take(buffer.mapped_bytes, handle);
  // Memory another process (or a pool's queued frees) holds for a moment comes back: pauses of
  // 1, 2, 4, ... 64 ms, about an eighth of a second in all before the work is refused.
  constexpr auto kLongestPause = std::chrono::milliseconds(64);
  for (auto pause = std::chrono::milliseconds(1);
       r == CUDA_ERROR_OUT_OF_MEMORY && need == Need::work && pause <= kLongestPause; pause *= 2) {
    ++counts.memory_waits;
    std::this_thread::sleep_for(pause);
    if (!releasing.empty()) finish_releases(false);
    r = physical.take(buffer.mapped_bytes, handle);
  }
  return r;
}

CUresult SwapSpace::Impl::map(SwapBuffer& buffer, Need need) {
  CUmemGenericAllocationHandle handle = 0;
  if (const CUresult r = take_physical(buffer, need, &handle); r != CUDA_SUCCESS) return r;
  CUresult r = api.mem_map(buffer.address, buffer.mapped_bytes, 0, handle, 0);
  if (r != CUDA_SUCCESS) {
    physical.keep(handle, buffer.mapped_bytes);
    note_pending();
    return r;
  }
  r = api.mem_set_access(buffer.address, buffer.mapped_bytes, &access, 1);  // a fresh mapping has none
  if (r != CUDA_SUCCESS) {
    api.mem_unmap(buffer.address, buffer.mapped_bytes);
    physical.keep(handle, buffer.mapped_bytes);
    note_pending();
    return r;
  }
  buffer.physical = handle;
  counts.resident_bytes += buffer.mapped_bytes;
  return CUDA_SUCCESS;
}

CUresult SwapSpace::Impl::map_at_first_use(SwapBuffer& buffer) {
  if (const CUresult r = map(buffer, Need::work); r != CUDA_SUCCESS) {
    ++counts.failures;
    return r;  // still reserved: nothing was lost, there was no data
  }
  set_residency(buffer, Residency::resident);
  report_untimed(SwapEvent::Kind::first_map, buffer);
  return CUDA_SUCCESS;
}

bool SwapSpace::Impl::unmap(SwapBuffer& buffer, bool keep_physical) {
  if (api.mem_unmap(buffer.address, buffer.mapped_bytes) != CUDA_SUCCESS) return false;
  if (keep_physical) {
    physical.keep(buffer.physical, buffer.mapped_bytes);
    note_pending();
  }
  else physical.release(buffer.physical);
  buffer.physical = 0;
  counts.resident_bytes -= buffer.mapped_bytes;
  return true;
}

void SwapSpace::Impl::report(SwapEvent::Kind kind, const SwapBuffer& buffer, CUevent start, CUevent end,
                             uint64_t bytes, bool on_demand, uint64_t sequence) {
  reported.push_back({SwapEvent{kind, buffer.address, bytes, 0, 0, on_demand, sequence, buffer.tag}, start, end});
  note_pending();
}

void SwapSpace::Impl::report_untimed(SwapEvent::Kind kind, const SwapBuffer& buffer) {
  finished.push_back(SwapEvent{kind, buffer.address, 0, 0, 0, false, next_sequence(), buffer.tag});
  note_pending();
}

void SwapSpace::Impl::time_reported(size_t keep) {
  while (reported.size() > keep) {
    Reported r = reported.front();
    reported.pop_front();
    float from_origin = 0, duration = 0;
    if (api.event_elapsed_time(&from_origin, origin, r.start) == CUDA_SUCCESS &&
        api.event_elapsed_time(&duration, r.start, r.end) == CUDA_SUCCESS) {
      r.event.start_ns = static_cast<uint64_t>(std::max(0.0, static_cast<double>(from_origin) * 1e6));
      r.event.end_ns =
          r.event.start_ns + static_cast<uint64_t>(std::max(0.0, static_cast<double>(duration) * 1e6));
    }
    events.give(r.start);
    events.give(r.end);
    finished.push_back(r.event);
  }
}

}  // namespace tidepool::runtime
