// HookScope::Callback: a thread of CUPTI's own is tidepool's for good after its first callback; a
// program's thread (one that has been inside a hook) is inside one only while a callback runs, so
// that the program's later driver calls on it are still recorded.
#include "intercept/hook_scope.h"

#include <gtest/gtest.h>

#include <thread>

namespace tidepool::intercept {
namespace {

bool next_call_passes_through() { return HookScope().nested(); }

TEST(HookScope, ACallbackOnAProgramThreadEndsWithTheCallback) {
  std::thread([] {
    EXPECT_FALSE(next_call_passes_through());  // the program's first hooked call
    {
      const HookScope::Callback callback;  // CUPTI asks for a buffer inside a later call
      EXPECT_TRUE(next_call_passes_through());
    }
    EXPECT_FALSE(next_call_passes_through());  // the program's calls are recorded again
  }).join();
}

TEST(HookScope, ACallbackInsideAHookLeavesTheHookAsItWas) {
  std::thread([] {
    {
      const HookScope hook;
      { const HookScope::Callback callback; }
      EXPECT_TRUE(next_call_passes_through());
    }
    EXPECT_FALSE(next_call_passes_through());
  }).join();
}

TEST(HookScope, CuptisOwnThreadIsOursForGood) {
  std::thread([] {
    { const HookScope::Callback callback; }  // the first thing CUPTI's thread does
    EXPECT_TRUE(next_call_passes_through());
    { const HookScope::Callback callback; }
    EXPECT_TRUE(next_call_passes_through());
  }).join();
}

}  // namespace
}  // namespace tidepool::intercept
