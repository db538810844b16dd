// Marks the thread as inside a hook, so that driver calls made while one runs (by our own code,
// by the driver calling its own exported functions, by CUPTI) pass straight through unrecorded.
#pragma once

namespace tidepool::intercept {

class HookScope {
 public:
  HookScope() : nested_(depth_ > 0) { ++depth_; }
  ~HookScope() { --depth_; }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;

  bool nested() const { return nested_; }

  // Marks the calling thread (one that CUPTI runs our callbacks on) as tidepool's for good: every
  // driver call it makes passes straight through.
  static void mark_thread_as_ours() {
    static thread_local bool marked = false;
    if (!marked) ++depth_;
    marked = true;
  }

 private:
  static inline thread_local int depth_ = 0;
  bool nested_;
};

}  // namespace tidepool::intercept
