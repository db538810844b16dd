// An example's own account of what it asked of the driver: device allocations and frees (with the
// peak of live requested bytes, in host call order), and kernel launches. Printed at the end as one
// JSON line "bookkeeping: {...}" on stderr, so tests can hold it against simcuda's SIMCUDA_STATS.
// Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace examples {

class Bookkeeping {
 public:
  void allocated(uint64_t address, size_t bytes);
  void freed(uint64_t address);
  void launched(uint64_t count = 1);
  void print() const;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, size_t> live_;
  uint64_t live_bytes_ = 0;
  uint64_t peak_bytes_ = 0;
  uint64_t allocations_ = 0;
  uint64_t frees_ = 0;
  uint64_t launches_ = 0;
};

}  // namespace examples
