// A wall-clock deadline for anytime solvers, and a flag that stops every deadline on a thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>

namespace tidepool::packing {

class StopDeadlinesWhen;

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
  // A deadline that never passes, for solvers run to the end; no stop flag stops it.
  static Deadline never() { return Deadline(Clock::time_point::max()); }
  bool is_never() const { return at_ == Clock::time_point::max(); }
  // This deadline, with `seconds` kept back for each item a loop has not reached yet (see
  // passed_at): for work that must still be finished after the loop stops.
  Deadline reserving_per_item(double seconds) const {
    Deadline reserving = *this;
    reserving.reserve_per_item_ = seconds;
    return reserving;
  }
  bool passed() const { return Clock::now() >= at_ || stopped(); }
  // Seconds from `start` until now.
  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  double seconds_left() const {
    return stopped() ? 0.0 : std::chrono::duration<double>(at_ - Clock::now()).count();
  }
  // Whether the deadline, less the reserve for the `unreached` items, has passed; looked at only
  // every `stride`-th call of a loop (`step` counts the calls), so that hot loops pay for the
  // clock rarely. Loops whose steps cost tens of microseconds look more often (kCostlyStride):
  // 1,024 such steps overran a 10 s deadline by up to 18 ms.
  static constexpr std::uint64_t kStride = 1024;
  static constexpr std::uint64_t kCostlyStride = 16;
  bool passed_at(std::uint64_t step, std::size_t unreached, std::uint64_t stride = kStride) const {
    if (step % stride != 0) return false;
    if (stopped()) return true;
    const double reserve = reserve_per_item_ * static_cast<double>(unreached);
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(reserve)) >= at_;
  }

 private:
  friend class StopDeadlinesWhen;
  explicit Deadline(Clock::time_point at) : at_(at) {}
  // Whether a stop flag in force on this thread (StopDeadlinesWhen) is set; never() is not
  // stopped: what runs to it must finish (a first packing, say).
  bool stopped() const;
  static inline thread_local const StopDeadlinesWhen* stops_ = nullptr;  // the innermost
  Clock::time_point at_;
  double reserve_per_item_ = 0;
};

// While it lives, every deadline on the thread that made it has passed, with no time left, once
// `stop` is set (by another thread), or a flag already in force there is: solvers end as they do
// at their deadline, with the best they have. Deadlines are made afresh from shares of the time
// left all through the solvers, so the flags belong to the thread rather than to a deadline.
// best.cpp runs two portfolios at once, and the first to pack the bound stops the other; a thread
// that a solver starts takes on the flags of the thread that started it (`inheriting`), which
// must outlive it (joined in the same scope).
class StopDeadlinesWhen {
 public:
  explicit StopDeadlinesWhen(const std::atomic<bool>& stop)
      : StopDeadlinesWhen(&stop, Deadline::stops_) {}
  // On a started thread: the flags in force where `inherited` was read (current()).
  struct Inherited {
    const StopDeadlinesWhen* innermost;
  };
  static Inherited current() { return {Deadline::stops_}; }
  static StopDeadlinesWhen inheriting(Inherited flags) {
    return StopDeadlinesWhen(nullptr, flags.innermost);
  }
  ~StopDeadlinesWhen() { Deadline::stops_ = outer_; }
  StopDeadlinesWhen(const StopDeadlinesWhen&) = delete;
  StopDeadlinesWhen& operator=(const StopDeadlinesWhen&) = delete;

  // Whether this flag or one it was made within is set.
  bool any_set() const {
    for (const StopDeadlinesWhen* flags = this; flags != nullptr; flags = flags->outer_) {
      if (flags->stop_ != nullptr && flags->stop_->load(std::memory_order_relaxed)) return true;
    }
    return false;
  }

 private:
  StopDeadlinesWhen(const std::atomic<bool>* stop, const StopDeadlinesWhen* outer)
      : stop_(stop), outer_(outer) {
    Deadline::stops_ = this;
  }
  const std::atomic<bool>* stop_;
  const StopDeadlinesWhen* outer_;
};

inline bool Deadline::stopped() const {
  return !is_never() && stops_ != nullptr && stops_->any_set();
}

}  // namespace tidepool::packing
