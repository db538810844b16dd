// How many cores a solve on this thread may keep busy. The machine's, unless a caller gave the
// thread a share: `best` runs two portfolios at once with half the cores each, and what each starts
// (the searches over overlaps, the holes' helper thread) keeps to its share, so that two
// portfolios do not start three threads or more on two cores. A share holds on the thread that
// made it until it ends; a thread started under it begins with the machine's cores, so whoever
// starts one gives it its share.
#pragma once

#include <algorithm>
#include <thread>

namespace tidepool::packing {

class CoreShare {
 public:
  explicit CoreShare(unsigned cores) : outer_(share_) { share_ = std::max(cores, 1U); }
  ~CoreShare() { share_ = outer_; }
  CoreShare(const CoreShare&) = delete;
  CoreShare& operator=(const CoreShare&) = delete;

  // This thread's share, or where none is in force, the machine's cores (at least one).
  static unsigned current() {
    return share_ != 0 ? share_ : std::max(std::thread::hardware_concurrency(), 1U);
  }

 private:
  static inline thread_local unsigned share_ = 0;  // 0: none in force
  const unsigned outer_;
};

}  // namespace tidepool::packing
