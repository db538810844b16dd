// The set of capturing streams, and what the driver says about one.
#include "intercept/capture_state.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>

#include "intercept/real_driver.h"

namespace tidepool::intercept {

uint64_t CaptureState::key(uint64_t stream) {
  if (stream == reinterpret_cast<uint64_t>(CU_STREAM_LEGACY)) return 0;
  if (stream == reinterpret_cast<uint64_t>(CU_STREAM_PER_THREAD)) {
    // An odd value: never a stream handle (those are pointers), unique per thread.
    static thread_local const char marker = 0;
    return reinterpret_cast<uint64_t>(&marker) | 1;
  }
  return stream;
}

bool CaptureState::contains(uint64_t k) const {
  const std::lock_guard lock(mutex_);
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == k; });
}

void CaptureState::begin(uint64_t stream) {
  const std::lock_guard lock(mutex_);
  const uint64_t k = key(stream);
  std::erase_if(entries_, [&](const Entry& e) { return e.key == k; });
  entries_.push_back({k, 0, true});
  publish();
}

void CaptureState::set_id(uint64_t stream, uint64_t id) {
  const std::lock_guard lock(mutex_);
  const uint64_t k = key(stream);
  for (Entry& e : entries_) {
    if (e.key == k) e.id = id;
  }
}

void CaptureState::join(uint64_t stream, uint64_t id) {
  const std::lock_guard lock(mutex_);
  const uint64_t k = key(stream);
  for (Entry& e : entries_) {
    if (e.key != k) continue;
    if (id != 0) e.id = id;
    return;
  }
  entries_.push_back({k, id, false});
  publish();
}

void CaptureState::end(uint64_t origin) {
  const std::lock_guard lock(mutex_);
  const uint64_t k = key(origin);
  const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == k; });
  if (it == entries_.end()) return;
  const Entry ended = *it;
  std::erase_if(entries_, [&](const Entry& e) {
    return e.key == k || (ended.origin && ended.id != 0 && e.id == ended.id);
  });
  publish();
}

void learn_capture_of(uint64_t stream) {
  if (stream == 0 || stream == reinterpret_cast<uint64_t>(CU_STREAM_LEGACY)) return;
  static const auto info =
      reinterpret_cast<PFN_cuStreamGetCaptureInfo_v10010>(real_driver_symbol("cuStreamGetCaptureInfo"));
  if (info == nullptr) return;
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  if (info(reinterpret_cast<CUstream>(stream), &status, &id) != CUDA_SUCCESS) return;
  if (status == CU_STREAM_CAPTURE_STATUS_NONE) {
    if (capture_state().capturing(stream)) capture_state().end(stream);
  } else {
    capture_state().join(stream, id);
  }
}

}  // namespace tidepool::intercept
