// A wall-clock deadline for anytime solvers.
#pragma once

#include <chrono>

namespace tidepool::packing {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  static Deadline after_seconds(double seconds) {
    return Deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                       std::chrono::duration<double>(seconds)));
  }
  bool passed() const { return Clock::now() >= at_; }
  double seconds_left() const { return std::chrono::duration<double>(at_ - Clock::now()).count(); }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  Clock::time_point at_;
};

}  // namespace tidepool::packing
