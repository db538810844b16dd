// The streams that used a buffer since it last became resident. Changed under the swap space's
// lock; whether a stream is among the first few can also be asked without it (the fast path of
// ensure_resident).
#pragma once

#include <cuda.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace tidepool::runtime {

class UserStreams {
 public:
  void add(CUstream stream) {
    if (std::find(all_.begin(), all_.end(), stream) != all_.end()) return;
    if (all_.size() < known_.size()) known_[all_.size()].store(tag(stream), std::memory_order_release);
    all_.push_back(stream);
  }
  void erase(CUstream stream) {
    std::erase(all_, stream);
    republish();
  }
  void clear() {
    all_.clear();
    republish();
  }
  bool contains(CUstream stream) const { return std::find(all_.begin(), all_.end(), stream) != all_.end(); }
  // Lock-free: true only if `stream` is one of the first few users (false may still be a user).
  bool known(CUstream stream) const {
    const uintptr_t wanted = tag(stream);
    for (const auto& slot : known_)
      if (slot.load(std::memory_order_acquire) == wanted) return true;
    return false;
  }
  const std::vector<CUstream>& all() const { return all_; }

 private:
  static uintptr_t tag(CUstream stream) { return reinterpret_cast<uintptr_t>(stream) + 1; }  // 0: empty slot
  void republish() {
    for (size_t i = 0; i < known_.size(); ++i)
      known_[i].store(i < all_.size() ? tag(all_[i]) : 0, std::memory_order_release);
  }

  std::vector<CUstream> all_;
  std::array<std::atomic<uintptr_t>, 4> known_{};
};

}  // namespace tidepool::runtime
