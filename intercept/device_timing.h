// Device timing of launches and copies with events of our own: an event recorded before and one
// after an operation on its stream, read later (once the end event has completed) into a
// DeviceTiming record. Never on a capturing stream, nor while any capture is under way. With
// --cupti (when CUPTI works), every operation's op id is handed to CUPTI around the real call
// instead, and CUPTI's records supply the times (cupti_timing.h). Disabled by
// TIDEPOOL_DEVICE_TIMING=0.
//
// Recording two events costs far more than the rest of a hook, so operations are sampled: each
// kind of operation (a kernel with its grid and block, a copy or set kind with its size) is timed
// its first kSampleFirst times and then once every kSampleEvery times; the analyzer gives untimed
// operations the times of their kind.
//
// Times are cuEventElapsedTime values from an origin event recorded before the first timed
// operation: float milliseconds, so they lose resolution (tens of microseconds) after hours.
#pragma once

#include <cuda.h>

#include <cstdint>

namespace tidepool::intercept {

inline constexpr uint32_t kSampleFirst = 4;
inline constexpr uint32_t kSampleEvery = 256;

class DeviceTimer {
 public:
  // Records the start event when timing applies to this operation; `kind` identifies operations
  // expected to take the same time (for sampling).
  DeviceTimer(uint64_t op_id, CUstream stream, bool captured, uint64_t kind);
  // Gives the start event back when the operation failed (and takes the op id back from CUPTI).
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;

  // The operation was issued: records the end event and queues the pair.
  void finish();

 private:
  uint64_t op_id_;
  CUstream stream_;
  CUevent start_ = nullptr;
  bool correlated_ = false;  // op_id_ is pushed to CUPTI
};

// Reads the timings of every queued operation that has completed (at synchronizations).
void collect_device_timings();

}  // namespace tidepool::intercept
