// Which streams are capturing (between our cuStreamBeginCapture and cuStreamEndCapture hooks):
// work issued on them is recorded as captured, and tidepool adds nothing of its own while any
// capture is under way.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace tidepool::intercept {

class CaptureState {
 public:
  void begin(uint64_t stream) {
    const std::lock_guard lock(mutex_);
    streams_.push_back(stream);
    count_.store(streams_.size(), std::memory_order_release);
  }
  void end(uint64_t stream) {
    const std::lock_guard lock(mutex_);
    std::erase(streams_, stream);
    count_.store(streams_.size(), std::memory_order_release);
  }
  bool any() const { return count_.load(std::memory_order_acquire) != 0; }
  bool capturing(uint64_t stream) const {
    if (!any()) return false;
    const std::lock_guard lock(mutex_);
    return std::find(streams_.begin(), streams_.end(), stream) != streams_.end();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<uint64_t> streams_;
  std::atomic<size_t> count_{0};
};

CaptureState& capture_state();

}  // namespace tidepool::intercept
