// The swap space's public calls: each takes the lock, finishes what completed, and does its step.
#include "runtime/swap/swap_space.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "runtime/swap/swap_space_impl.h"

namespace tidepool::runtime {
namespace {

void require(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS)
    throw std::runtime_error(std::string("swap space: ") + what + " failed (CUDA error " + std::to_string(result) + ")");
}

// Pinned device memory on the device of `context`, which must be current.
CUmemAllocationProp device_memory(const DriverApi& api, CUcontext context) {
  CUcontext current = nullptr;
  require(api.ctx_get_current(&current), "cuCtxGetCurrent");
  if (current != context) throw std::runtime_error("swap space: its context is not the current one");
  CUdevice device = 0;
  require(api.ctx_get_device(&device), "cuCtxGetDevice");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, device};
  return prop;
}

}  // namespace

SwapSpace::Impl::Impl(const DriverApi& driver, CUcontext context, uint64_t pinned_limit_bytes)
    : api(driver), prop(device_memory(api, context)), pinned(api, pinned_limit_bytes), physical(api, prop) {
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  size_t minimum = 0;
  require(api.mem_get_allocation_granularity(&minimum, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
          "cuMemGetAllocationGranularity");
  granularity = minimum;
  require(api.stream_create(&copy_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  if (const CUresult created = api.stream_create(&in_stream, CU_STREAM_NON_BLOCKING); created != CUDA_SUCCESS) {
    api.stream_destroy(copy_stream);
    require(created, "cuStreamCreate");
  }
  origin = events.take();
  scratch = events.take();
  const CUresult recorded = origin != nullptr && scratch != nullptr ? api.event_record(origin, copy_stream)
                                                                    : CUDA_ERROR_OUT_OF_MEMORY;
  if (recorded != CUDA_SUCCESS) {
    events.give(origin);
    events.give(scratch);
    api.stream_destroy(copy_stream);
    api.stream_destroy(in_stream);
    require(recorded, "cuEventCreate/cuEventRecord");
  }
  publish_index();
}

SwapSpace::Impl::~Impl() {
  const std::lock_guard lock(mutex);
  api.stream_synchronize(copy_stream);
  api.stream_synchronize(in_stream);
  finish_completed();
  finish_releases(true);
  for (auto& [address, buffer] : buffers) {
    for (CUevent fence : buffer->fences) events.give(fence);
    drop_host(*buffer);  // live buffers stay mapped (the process is ending); swapped-out ones stay out
  }
  for (const Reported& r : reported) {
    events.give(r.start);
    events.give(r.end);
  }
  events.give(origin);
  events.give(scratch);
  api.stream_destroy(copy_stream);
  api.stream_destroy(in_stream);
}

SwapSpace::SwapSpace(const DriverApi& api, CUcontext context, uint64_t pinned_limit_bytes)
    : impl_(std::make_unique<Impl>(api, context, pinned_limit_bytes)) {}

SwapSpace::~SwapSpace() = default;

uint64_t SwapSpace::granularity() const { return impl_->granularity; }

CUresult SwapSpace::allocate(uint64_t bytes, CUdeviceptr* address, Mapping mapping) {
  if (bytes == 0 || address == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  auto buffer = std::make_unique<SwapBuffer>();
  buffer->bytes = bytes;
  buffer->mapped_bytes = (bytes + s.granularity - 1) / s.granularity * s.granularity;
  if (const CUresult r = s.api.mem_address_reserve(&buffer->address, buffer->mapped_bytes, s.granularity, 0, 0);
      r != CUDA_SUCCESS)
    return r;
  if (mapping == Mapping::at_first_use) {
    s.set_residency(*buffer, Residency::reserved);
  } else if (const CUresult r = s.map(*buffer, Impl::Need::allocation); r != CUDA_SUCCESS) {
    s.api.mem_address_free(buffer->address, buffer->mapped_bytes);
    return r;
  }
  buffer->last_use = ++s.use_clock;
  *address = buffer->address;
  s.buffers.emplace(buffer->address, std::move(buffer));
  s.publish_index();
  return CUDA_SUCCESS;
}

bool SwapSpace::release(CUdeviceptr address, CUstream stream) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  const auto it = s.buffers.find(address);
  if (it == s.buffers.end()) return false;
  std::unique_ptr<SwapBuffer> buffer = std::move(it->second);
  s.buffers.erase(it);
  s.publish_index();
  if (buffer->residency != Residency::resident) --s.absent;
  buffer->released = true;
  if (stream != nullptr) buffer->users.add(stream);
  s.forget_users(*buffer);  // an event on each user: the memory goes back after their work
  s.releasing.push_back(std::move(buffer));
  s.note_pending();
  s.finish_releases(stream == nullptr);
  return true;
}

void SwapSpace::set_tag(CUdeviceptr address, uint64_t tag) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  const auto it = s.buffers.find(address);
  if (it == s.buffers.end()) return;
  SwapBuffer& buffer = *it->second;
  buffer.tag = tag;
  if (buffer.residency == Residency::reserved) s.report_untimed(SwapEvent::Kind::map_deferred, buffer);
}

std::optional<std::pair<CUdeviceptr, uint64_t>> SwapSpace::find(CUdeviceptr address) const {
  const std::lock_guard lock(impl_->mutex);
  const SwapBuffer* buffer = impl_->lookup(address);
  if (buffer == nullptr) return std::nullopt;
  return std::pair{buffer->address, buffer->bytes};
}

CUresult SwapSpace::ensure_resident(CUdeviceptr address, CUstream stream, bool* missed, Use use) {
  if (missed != nullptr) *missed = false;
  Impl& s = *impl_;
  const std::span<const CUdeviceptr> only_read(&address, use == Use::reads ? 1 : 0);
  switch (s.try_fast_path({&address, 1}, only_read, stream, true)) {
    case Impl::FastPath::resident: return CUDA_SUCCESS;
    case Impl::FastPath::not_ours: return CUDA_ERROR_NOT_FOUND;
    case Impl::FastPath::slow: break;
  }
  const std::lock_guard lock(s.mutex);
  if (s.absent.load(std::memory_order_relaxed) > 0 || !s.in_flight.empty()) s.finish_completed();
  SwapBuffer* buffer = s.lookup(address);
  if (buffer == nullptr) return CUDA_ERROR_NOT_FOUND;
  return s.make_resident(*buffer, stream, missed, use);
}

CUresult SwapSpace::ensure_resident(std::span<const CUdeviceptr> addresses, CUstream stream,
                                    bool* missed, std::span<const CUdeviceptr> only_read) {
  if (missed != nullptr) *missed = false;
  Impl& s = *impl_;
  if (s.try_fast_path(addresses, only_read, stream, false) == Impl::FastPath::resident)
    return CUDA_SUCCESS;
  const std::lock_guard lock(s.mutex);
  if (s.absent.load(std::memory_order_relaxed) > 0 || !s.in_flight.empty()) s.finish_completed();
  s.launch.clear();
  for (const CUdeviceptr address : addresses)
    if (SwapBuffer* buffer = s.lookup(address); buffer != nullptr) s.launch.push_back(buffer);
  CUresult result = CUDA_SUCCESS;
  for (SwapBuffer* buffer : s.launch) {
    bool one_missed = false;
    const bool read =
        std::find(only_read.begin(), only_read.end(), buffer->address) != only_read.end();
    result = s.make_resident(*buffer, stream, &one_missed, read ? Use::reads : Use::may_write);
    if (missed != nullptr) *missed = *missed || one_missed;
    if (result != CUDA_SUCCESS) break;
  }
  s.launch.clear();
  return result;
}

bool SwapSpace::swap_out(CUdeviceptr address, bool copy_out) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  SwapBuffer* buffer = s.lookup(address);
  if (buffer == nullptr || buffer->kept_resident) return false;
  if (buffer->residency != Residency::resident && buffer->residency != Residency::arriving) return false;
  return s.start_swap_out(*buffer, copy_out);
}

bool SwapSpace::is_out(CUdeviceptr address) const {
  const std::lock_guard lock(impl_->mutex);
  const SwapBuffer* buffer = impl_->lookup(address);
  return buffer != nullptr && buffer->residency == Residency::out;
}

uint64_t SwapSpace::bytes_to_map(std::span<const CUdeviceptr> addresses) const {
  const Impl& s = *impl_;
  if (s.absent.load(std::memory_order_acquire) == 0) return 0;
  const std::lock_guard lock(s.mutex);
  uint64_t bytes = 0;
  for (const CUdeviceptr address : addresses) {
    const SwapBuffer* buffer = s.lookup(address);
    if (buffer != nullptr && (buffer->residency == Residency::out || buffer->residency == Residency::reserved))
      bytes += buffer->mapped_bytes;
  }
  return bytes;
}

CUresult SwapSpace::swap_in(CUdeviceptr address) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  SwapBuffer* buffer = s.lookup(address);
  if (buffer == nullptr) return CUDA_ERROR_NOT_FOUND;
  if (buffer->residency == Residency::out) return s.start_swap_in(*buffer, false);
  if (buffer->residency == Residency::leaving) s.claim_in_flight(*buffer, std::nullopt);
  return CUDA_SUCCESS;
}

void SwapSpace::keep_resident(CUdeviceptr address) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  SwapBuffer* buffer = s.lookup(address);
  if (buffer == nullptr) return;
  buffer->kept_resident = true;
  // It may be reached where we cannot see: it must be back before anything else runs.
  if (buffer->residency == Residency::reserved) {
    s.map_at_first_use(*buffer);  // on failure it stays unmapped: its next use maps it or fails
    return;
  }
  if (buffer->residency == Residency::out && s.start_swap_in(*buffer, false) != CUDA_SUCCESS) return;
  s.claim_in_flight(*buffer, std::nullopt);
  if (buffer->latest_copy != nullptr) s.api.event_synchronize(buffer->latest_copy);
  s.finish_completed();
}

void SwapSpace::forget_stream(CUstream stream) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  for (auto& [address, buffer] : s.buffers) {
    if (!buffer->users.contains(stream)) continue;
    s.fence_user(*buffer, stream);
    buffer->users.erase(stream);
  }
}

uint64_t SwapSpace::evict(uint64_t bytes) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  return s.evict(bytes, nullptr);
}

void SwapSpace::set_report_lag(size_t transfers) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.report_lag = transfers;
}

void SwapSpace::set_sequence_source(uint64_t (*source)()) {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.sequence_source = source;
}

uint64_t SwapSpace::finish_oldest_swap_out() {
  Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  // A cancelled swap-out (its buffer used again while leaving) frees nothing: skipped.
  const auto oldest = std::find_if(s.in_flight.begin(), s.in_flight.end(), [](const Transfer& t) {
    return t.kind == SwapEvent::Kind::swap_out && t.buffer->residency == Residency::leaving &&
           t.buffer->latest_copy == t.end;
  });
  if (oldest == s.in_flight.end()) return 0;
  const uint64_t before = s.counts.resident_bytes;
  if (s.api.event_synchronize(oldest->end) != CUDA_SUCCESS) return 0;
  s.finish_completed();
  const uint64_t unmapped = before > s.counts.resident_bytes ? before - s.counts.resident_bytes : 0;
  s.physical.release_all();
  return unmapped;
}

uint64_t SwapSpace::device_bytes() const {
  const Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  return s.counts.resident_bytes + s.physical.cached_bytes();
}

void SwapSpace::Impl::update_pending() {
  pending.store(!in_flight.empty() || !releasing.empty() || !reported.empty() || physical.cached_bytes() > 0,
                std::memory_order_release);
}

uint64_t SwapSpace::trim() {
  Impl& s = *impl_;
  if (!s.pending.load(std::memory_order_acquire)) return 0;  // the common case: no lock
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  const uint64_t released = s.physical.release_all();
  s.update_pending();
  return released;
}

std::vector<SwapEvent> SwapSpace::poll(bool everything) {
  Impl& s = *impl_;
  if (!s.pending.load(std::memory_order_acquire)) return {};  // the common case: no lock
  const std::lock_guard lock(s.mutex);
  s.finish_completed();
  s.time_reported(everything ? 0 : s.report_lag);
  s.update_pending();
  return std::exchange(s.finished, {});
}

SwapStats SwapSpace::stats() const {
  const Impl& s = *impl_;
  const std::lock_guard lock(s.mutex);
  SwapStats stats = s.counts;
  stats.buffers = s.buffers.size();
  stats.cached_physical_bytes = s.physical.cached_bytes();
  stats.physical_creates = s.physical.creates();
  stats.pinned_bytes = s.pinned.held_bytes();
  stats.pinned_peak_bytes = s.pinned.peak_bytes();
  stats.pinned_limit_bytes = s.pinned.limit_bytes();
  return stats;
}

}  // namespace tidepool::runtime
