// A wall-clock deadline for anytime solvers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace tidepool::packing {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  // Saturates: as long as or longer than the clock can count is never (a share of
  // never().seconds_left(), say); none or less is now.
  static Deadline after_seconds(double seconds) {
    const Clock::time_point now = Clock::now();
    if (!(seconds > 0)) return Deadline(now);
    if (seconds >= std::chrono::duration<double>(Clock::time_point::max() - now).count()) return never();
    return Deadline(now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
  }
  // A deadline that never passes, for solvers run to the end.
  static Deadline never() { return Deadline(Clock::time_point::max()); }
  // This deadline, with `seconds` kept back for each item a loop has not reached yet (see
  // passed_at): for work that must still be finished after the loop stops.
  Deadline reserving_per_item(double seconds) const {
    Deadline reserving = *this;
    reserving.reserve_per_item_ = seconds;
    return reserving;
  }
  bool passed() const { return Clock::now() >= at_; }
  // Seconds from `start` until now.
  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  double seconds_left() const { return std::chrono::duration<double>(at_ - Clock::now()).count(); }
  // Whether the deadline, less the reserve for the `unreached` items, has passed; looked at only
  // every `stride`-th call of a loop (`step` counts the calls), so that hot loops pay for the
  // clock rarely. Loops whose steps cost tens of microseconds look more often (kCostlyStride):
  // 1,024 such steps overran a 10 s deadline by up to 18 ms.
  static constexpr std::uint64_t kStride = 1024;
  static constexpr std::uint64_t kCostlyStride = 16;
  bool passed_at(std::uint64_t step, std::size_t unreached, std::uint64_t stride = kStride) const {
    if (step % stride != 0) return false;
    const double reserve = reserve_per_item_ * static_cast<double>(unreached);
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(reserve)) >= at_;
  }

 private:
  explicit Deadline(Clock::time_point at) : at_(at) {}
  Clock::time_point at_;
  double reserve_per_item_ = 0;
};

}  // namespace tidepool::packing
