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

 private:
  static inline thread_local int depth_ = 0;
  bool nested_;
};

}  // namespace tidepool::intercept
