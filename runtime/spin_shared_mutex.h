// A reader-writer lock for critical sections of a few dozen instructions taken on every
// allocation and free (the map of live allocations): one atomic read-modify-write to take it
// exclusively and a plain store to release it, where std::shared_mutex costs two of each. A
// waiting writer keeps new readers out, so that a stream of readers cannot starve it. Waiters spin
// briefly, then yield the processor (the holder may have been preempted). Meets the standard's
// Lockable and SharedLockable requirements (std::unique_lock, std::shared_lock).
#pragma once

#include <sched.h>

#include <atomic>
#include <cstdint>

namespace tidepool::runtime {

class SpinSharedMutex {
 public:
  void lock() {
    for (int attempt = 0;; ++attempt) {
      uint32_t state = state_.load(std::memory_order_relaxed);
      if ((state & ~kWriterWaiting) == 0 &&
          state_.compare_exchange_weak(state, kWriter, std::memory_order_acquire, std::memory_order_relaxed))
        return;
      if ((state & kWriterWaiting) == 0) state_.fetch_or(kWriterWaiting, std::memory_order_relaxed);
      wait(attempt);
    }
  }
  bool try_lock() {
    uint32_t state = state_.load(std::memory_order_relaxed);
    return (state & ~kWriterWaiting) == 0 &&
           state_.compare_exchange_strong(state, kWriter, std::memory_order_acquire, std::memory_order_relaxed);
  }
  // Also drops the waiting mark: writers still waiting set it again.
  void unlock() { state_.store(0, std::memory_order_release); }

  void lock_shared() {
    for (int attempt = 0; !try_lock_shared(); ++attempt) wait(attempt);
  }
  bool try_lock_shared() {
    uint32_t state = state_.load(std::memory_order_relaxed);
    return (state & (kWriter | kWriterWaiting)) == 0 &&
           state_.compare_exchange_strong(state, state + 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void unlock_shared() { state_.fetch_sub(1, std::memory_order_release); }

 private:
  static constexpr uint32_t kWriter = 1u << 31;
  static constexpr uint32_t kWriterWaiting = 1u << 30;  // below it: the number of readers

  static void wait(int attempt) {
    if (attempt < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield");
#endif
    } else {
      sched_yield();
    }
  }

  std::atomic<uint32_t> state_{0};
};

}  // namespace tidepool::runtime
