// The monotonic clock in nanoseconds, for the recorder's event times, self-timing and the run
// command's waits: one place for the clock_gettime call.
#pragma once

#include <time.h>

#include <cstdint>

namespace tidepool::runtime {

inline uint64_t monotonic_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1'000'000'000ull + static_cast<uint64_t>(t.tv_nsec);
}

}  // namespace tidepool::runtime
