// How many times the calling thread has met each kind of operation, for sampling device timing:
// an open-addressing table (linear probing, grown at half full), so that counting a kind met
// before allocates nothing, takes no lock and hashes once.
#pragma once

#include <cstdint>
#include <vector>

namespace tidepool::intercept {

class KindCounts {
 public:
  // The number of times `kind` was met before this call (and counts this one).
  uint32_t meet(uint64_t kind) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = slot_of(kind, mask);; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (!s.used) {
        s = {kind, 1, true};
        ++used_;
        return 0;
      }
      if (s.kind == kind) return s.count++;
    }
  }

 private:
  struct Slot {
    uint64_t kind = 0;
    uint32_t count = 0;
    bool used = false;
  };

  static size_t slot_of(uint64_t kind, size_t mask) {
    return static_cast<size_t>((kind * 0x9E3779B97F4A7C15ull) >> 32) & mask;
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 32 : 2 * slots_.size());
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.used) continue;
      size_t i = slot_of(s.kind, mask);
      while (slots_[i].used) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t used_ = 0;
};

}  // namespace tidepool::intercept
