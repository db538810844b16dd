// Counting of an example's allocations, frees and launches (see bookkeeping.h).
#include "tools/examples/common/bookkeeping.h"

#include <cstdio>

namespace examples {

void Bookkeeping::allocated(uint64_t address, size_t bytes) {
  std::lock_guard lock(mutex_);
  live_[address] = bytes;
  live_bytes_ += bytes;
  if (live_bytes_ > peak_bytes_) peak_bytes_ = live_bytes_;
  ++allocations_;
}

void Bookkeeping::freed(uint64_t address) {
  std::lock_guard lock(mutex_);
  auto found = live_.find(address);
  if (found == live_.end()) return;  // not ours: the driver call itself reports the error
  live_bytes_ -= found->second;
  live_.erase(found);
  ++frees_;
}

void Bookkeeping::launched(uint64_t count) {
  std::lock_guard lock(mutex_);
  launches_ += count;
}

void Bookkeeping::print() const {
  std::lock_guard lock(mutex_);
  std::fprintf(
      stderr,
      "bookkeeping: {\"allocations\": %llu, \"frees\": %llu, \"peak_requested_bytes\": "
      "%llu, \"requested_bytes_at_exit\": %llu, \"kernel_launches\": %llu}\n",
      static_cast<unsigned long long>(allocations_), static_cast<unsigned long long>(frees_),
      static_cast<unsigned long long>(peak_bytes_), static_cast<unsigned long long>(live_bytes_),
      static_cast<unsigned long long>(launches_));
}

}  // namespace examples
