// Swapping out and in on the two copy streams (one per direction), ordered after the buffers'
// users, and finishing the transfers that completed (unmapping what left, making resident what came back).
#include <algorithm>

#include "runtime/swap/swap_space_impl.h"

namespace tidepool::runtime {

CUresult SwapSpace::Impl::order_copy_stream_after_users(SwapBuffer& buffer) {
  for (CUstream user : buffer.users.all()) {
    if (const CUresult r = api.event_record(scratch, user); r != CUDA_SUCCESS) return r;
    if (const CUresult r = api.stream_wait_event(copy_stream, scratch, 0); r != CUDA_SUCCESS) return r;
  }
  for (CUevent fence : buffer.fences)
    if (const CUresult r = api.stream_wait_event(copy_stream, fence, 0); r != CUDA_SUCCESS) return r;
  return CUDA_SUCCESS;
}

void SwapSpace::Impl::fence_user(SwapBuffer& buffer, CUstream user) {
  CUevent fence = events.take();
  if (fence != nullptr && api.event_record(fence, user) == CUDA_SUCCESS) {
    buffer.fences.push_back(fence);
    return;
  }
  events.give(fence);
  api.stream_synchronize(user);  // no fence to wait on later: its work is waited for now
}

void SwapSpace::Impl::forget_users(SwapBuffer& buffer) {
  for (CUstream user : buffer.users.all()) fence_user(buffer, user);
  buffer.users.clear();
}

bool SwapSpace::Impl::start_swap_out(SwapBuffer& buffer, bool copy_out) {
  const bool copy = copy_out || !buffer.host_current;
  if (copy && buffer.host.empty() && !take_pinned(buffer)) return false;  // past the pinned limit
  CUevent start = events.take();
  CUevent end = events.take();
  CUresult r = start != nullptr && end != nullptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  if (r == CUDA_SUCCESS) r = order_copy_stream_after_users(buffer);
  // Still arriving: the copy back (on the other stream) must land before this copies or unmaps.
  if (r == CUDA_SUCCESS && buffer.residency == Residency::arriving)
    r = api.stream_wait_event(copy_stream, buffer.latest_copy, 0);
  if (r == CUDA_SUCCESS) r = api.event_record(start, copy_stream);
  if (r == CUDA_SUCCESS && copy)
    r = api.memcpy_dtoh_async(buffer.host.data(), buffer.address, buffer.bytes, copy_stream);
  if (r == CUDA_SUCCESS) r = api.event_record(end, copy_stream);
  if (r != CUDA_SUCCESS) {  // nothing changed but possibly a partial host copy: the buffer stays
    ++counts.failures;
    if (copy) buffer.host_current = false;
    events.give(start);
    events.give(end);
    return false;
  }
  buffer.users.clear();
  for (CUevent fence : buffer.fences) events.give(fence);
  buffer.fences.clear();
  set_residency(buffer, Residency::leaving);
  ++buffer.transfers;
  buffer.latest_copy = end;
  in_flight.push_back({&buffer, SwapEvent::Kind::swap_out, start, end, copy ? buffer.bytes : 0, false});
  note_pending();
  return true;
}

CUresult SwapSpace::Impl::start_swap_in(SwapBuffer& buffer, bool on_demand) {
  if (const CUresult r = map(buffer, on_demand ? Need::work : Need::prefetch); r != CUDA_SUCCESS) {
    ++counts.failures;
    return r;  // still out, its host copy intact
  }
  CUevent start = events.take();
  CUevent end = events.take();
  CUresult r = start != nullptr && end != nullptr ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  if (r == CUDA_SUCCESS) r = api.event_record(start, in_stream);
  if (r == CUDA_SUCCESS) r = api.memcpy_htod_async(buffer.address, buffer.host.data(), buffer.bytes, in_stream);
  if (r == CUDA_SUCCESS) r = api.event_record(end, in_stream);
  if (r != CUDA_SUCCESS) {
    ++counts.failures;
    events.give(start);
    events.give(end);
    api.stream_synchronize(in_stream);  // a copy may have been queued before the failure
    unmap(buffer, true);
    return r;
  }
  set_residency(buffer, Residency::arriving);
  ++buffer.transfers;
  buffer.latest_copy = end;
  in_flight.push_back({&buffer, SwapEvent::Kind::swap_in, start, end, buffer.bytes, on_demand, next_sequence()});
  note_pending();
  return CUDA_SUCCESS;
}

CUresult SwapSpace::Impl::make_resident(SwapBuffer& buffer, CUstream consumer, bool* missed,
                                        Use use) {
  buffer.last_use = ++use_clock;
  if (buffer.residency == Residency::reserved) {  // its first use: memory, and nothing to copy
    if (const CUresult r = map_at_first_use(buffer); r != CUDA_SUCCESS) return r;
  } else if (buffer.residency == Residency::out) {  // a miss: back synchronously
    if (const CUresult r = start_swap_in(buffer, true); r != CUDA_SUCCESS) return r;
    if (const CUresult r = api.event_synchronize(buffer.latest_copy); r != CUDA_SUCCESS) return r;
    finish_completed();
    if (missed != nullptr) *missed = true;
  } else {
    claim_in_flight(buffer, consumer);
  }
  buffer.users.add(consumer);
  if (use == Use::may_write) buffer.host_current = false;
  return CUDA_SUCCESS;
}

void SwapSpace::Impl::claim_in_flight(SwapBuffer& buffer, std::optional<CUstream> consumer) {
  if (buffer.residency == Residency::leaving) {
    // Cancelled: it stays mapped. Its host copy may be overwritten by work after the copy starts.
    set_residency(buffer, Residency::resident);
    buffer.host_current = false;
  }
  if (buffer.residency != Residency::arriving || !consumer) return;
  if (api.stream_wait_event(*consumer, buffer.latest_copy, 0) != CUDA_SUCCESS)
    api.event_synchronize(buffer.latest_copy);
}

// The two streams complete out of order between them, so every transfer is asked; one buffer's
// transfers still finish in the order they were queued (a swap-out of an arriving buffer waits for
// its copy back, and a swap-in starts only once the buffer is out).
void SwapSpace::Impl::finish_completed() {
  finish_completed_transfers();
  if (!releasing.empty()) finish_releases(false);
}

void SwapSpace::Impl::finish_completed_transfers() {
  for (auto it = in_flight.begin(); it != in_flight.end();) {
    if (api.event_query(it->end) != CUDA_SUCCESS) {
      ++it;
      continue;
    }
    const Transfer transfer = *it;
    it = in_flight.erase(it);
    complete(transfer);
  }
}

void SwapSpace::Impl::complete(const Transfer& transfer) {
  SwapBuffer& buffer = *transfer.buffer;
  --buffer.transfers;
  const bool latest = buffer.latest_copy == transfer.end;
  bool reported_it = false;
  if (latest) buffer.latest_copy = nullptr;
  if (transfer.kind == SwapEvent::Kind::swap_out) {
    if (latest && buffer.residency == Residency::leaving && !buffer.released) {
      buffer.host_current = true;
      if (unmap(buffer, true)) {
        set_residency(buffer, Residency::out);
        ++counts.swap_outs;
        counts.bytes_out += transfer.bytes;
        report(transfer.kind, buffer, transfer.start, transfer.end, transfer.bytes, false, next_sequence());
        reported_it = true;
      } else {
        ++counts.failures;  // still mapped with its data: it stays, and may be written from now on
        buffer.host_current = false;
        set_residency(buffer, Residency::resident);
      }
    }
  } else {
    if (latest && buffer.residency == Residency::arriving) set_residency(buffer, Residency::resident);
    ++(transfer.on_demand ? counts.on_demand_swap_ins : counts.swap_ins);
    counts.bytes_in += transfer.bytes;
    report(transfer.kind, buffer, transfer.start, transfer.end, transfer.bytes, transfer.on_demand,
           transfer.sequence);
    reported_it = true;
    if (buffer.host.pageable != nullptr && buffer.transfers == 0) drop_host(buffer);  // heap copies are rescue only
  }
  if (!reported_it) {
    events.give(transfer.start);
    events.give(transfer.end);
  }
}

void SwapSpace::Impl::finish_releases(bool wait) {
  // Waiting for a released buffer's own transfers (its latest: one buffer's complete in order),
  // not for every copy queued on the two streams.
  bool waited = false;
  for (const auto& buffer : releasing)
    if (wait && buffer->transfers > 0 && buffer->latest_copy != nullptr)
      waited = api.event_synchronize(buffer->latest_copy) == CUDA_SUCCESS || waited;
  if (waited) finish_completed_transfers();
  std::erase_if(releasing, [&](const std::unique_ptr<SwapBuffer>& buffer) { return finish_release(*buffer, wait); });
}

bool SwapSpace::Impl::finish_release(SwapBuffer& buffer, bool wait) {
  if (buffer.transfers > 0) return false;
  for (CUevent fence : buffer.fences) {
    const CUresult r = wait ? api.event_synchronize(fence) : api.event_query(fence);
    if (r == CUDA_ERROR_NOT_READY) return false;
  }
  for (CUevent fence : buffer.fences) events.give(fence);
  buffer.fences.clear();
  if (buffer.physical != 0 && !unmap(buffer, true)) {
    ++counts.failures;
    return false;  // tried again at the next call
  }
  api.mem_address_free(buffer.address, buffer.mapped_bytes);
  drop_host(buffer);
  return true;
}

}  // namespace tidepool::runtime
