// Marks the thread as inside a hook, so that driver calls made while one runs (by our own code,
// by the driver calling its own exported functions, by CUPTI) pass straight through unrecorded.
#pragma once

namespace tidepool::intercept {

class HookScope {
 public:
  HookScope() : nested_(depth_ > 0) {
    ++depth_;
    entered_ = true;
  }
  ~HookScope() { --depth_; }
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;

  bool nested() const { return nested_; }

  // Held by a callback that CUPTI runs. CUPTI runs them on a thread of its own, which is then
  // marked as tidepool's for good: every driver call it makes passes straight through. But it
  // also asks for a buffer inside a program's driver call, and hands buffers back inside a flush,
  // on the program's own thread: such a thread (one that has been inside a hook before) is inside
  // a hook only while the callback runs, so that the program's later calls on it are recorded.
  class Callback {
   public:
    Callback() : scoped_(entered_) {
      ++depth_;
      entered_ = true;
    }
    ~Callback() {
      if (scoped_) --depth_;
    }
    Callback(const Callback&) = delete;
    Callback& operator=(const Callback&) = delete;

   private:
    bool scoped_;
  };

 private:
  static inline thread_local int depth_ = 0;
  static inline thread_local bool entered_ = false;  // this thread has been inside a hook
  bool nested_;
};

}  // namespace tidepool::intercept
