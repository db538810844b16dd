// The program's streams and the fence that orders a new one after in-order arena frees.
#include "runtime/optimize/stream_order.h"

#include <algorithm>

namespace tidepool::runtime::optimize {

StreamOrder::~StreamOrder() {
  if (fence_ != nullptr) api_.event_destroy(fence_);
}

// Records the fence on the one stream used so far, after the frees that recorded nothing.
bool StreamOrder::fence_unfenced_frees() {
  if (!unfenced_) return true;
  unfenced_ = false;
  if (streams_.empty()) return true;  // no work was ever queued: nothing to order after
  const CUstream old = streams_[0];
  if (capturing_(old)) return false;  // nothing of ours goes to a capturing stream
  if (fence_ == nullptr && api_.event_create(&fence_, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS) {
    fence_ = nullptr;
    return false;
  }
  return api_.event_record(fence_, old) == CUDA_SUCCESS;
}

bool StreamOrder::use(CUstream stream) {
  if (std::find(streams_.begin(), streams_.end(), stream) != streams_.end()) return true;
  bool ordered = fence_unfenced_frees();
  if (ordered && fence_ != nullptr) ordered = api_.stream_wait_event(stream, fence_, 0) == CUDA_SUCCESS;
  streams_.push_back(stream);
  return ordered;
}

bool StreamOrder::forget(CUstream stream) {
  const bool ordered = !(in_order() && !streams_.empty() && streams_[0] == stream) || fence_unfenced_frees();
  std::erase(streams_, stream);
  return ordered;
}

}  // namespace tidepool::runtime::optimize
