// Wall-clock completion of operations: one condition variable for all of them.
#include "tools/simcuda/src/op.h"

#include <condition_variable>
#include <mutex>

namespace simcuda {
namespace {

struct Completion {
  std::mutex mutex;
  std::condition_variable changed;
};

Completion& completion() {
  static Completion& instance = *new Completion;  // outlives every worker thread
  return instance;
}

}  // namespace

void mark_done(Op& op) {
  Completion& c = completion();
  {
    const std::lock_guard lock(c.mutex);
    op.done.store(true, std::memory_order_release);
  }
  c.changed.notify_all();
}

void wait_done(const Op& op) {
  if (op.done.load(std::memory_order_acquire)) return;
  Completion& c = completion();
  std::unique_lock lock(c.mutex);
  c.changed.wait(lock, [&] { return op.done.load(std::memory_order_acquire); });
}

}  // namespace simcuda
