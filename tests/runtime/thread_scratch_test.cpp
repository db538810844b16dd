// ThreadScratch: one object per thread and tag, reused from call to call, freed when its thread
// ends; and after that (a thread's later destructors, the main thread's exit handlers) each use
// gets a fresh object of its own instead of the destroyed one.
#include "runtime/thread_scratch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace tidepool::runtime {
namespace {

std::atomic<int> g_destroyed{0};

struct Counted {
  std::vector<int> values;
  ~Counted() { ++g_destroyed; }
};

struct First {};
struct Second {};

TEST(ThreadScratch, OneObjectPerThreadAndTagReused) {
  Counted* first = nullptr;
  {
    const auto lease = ThreadScratch<Counted, First>::get();
    lease->values.push_back(1);
    first = &*lease;
  }
  const auto again = ThreadScratch<Counted, First>::get();
  EXPECT_EQ(&*again, first);
  EXPECT_EQ(again->values, std::vector<int>{1});
  const auto second = ThreadScratch<Counted, Second>::get();
  EXPECT_NE(&*second, first);
  Counted* other_thread = nullptr;
  std::thread([&] { other_thread = &*ThreadScratch<Counted, First>::get(); }).join();
  EXPECT_NE(other_thread, first);
}

TEST(ThreadScratch, FreedWhenItsThreadEnds) {
  const int before = g_destroyed;
  std::thread([] { ThreadScratch<Counted, First>::get()->values.assign(100, 7); }).join();
  EXPECT_EQ(g_destroyed, before + 1);
}

// A thread_local made before the thread's first get() is destroyed after ThreadScratch's guard
// (in reverse order of construction): what its destructor gets stands for an exit handler's call.
struct LateUser {
  bool* fresh = nullptr;
  ~LateUser() {
    const auto lease = ThreadScratch<Counted, First>::get();
    *fresh = lease->values.empty();
    lease->values.push_back(2);  // into its own object: nothing destroyed is written
  }
};

TEST(ThreadScratch, UsesAfterTheThreadsDestructorsGetObjectsOfTheirOwn) {
  bool fresh = false;
  const int before = g_destroyed;
  std::thread([&] {
    thread_local LateUser late;
    late.fresh = &fresh;
    ThreadScratch<Counted, First>::get()->values.assign(3, 9);
  }).join();
  EXPECT_TRUE(fresh);
  EXPECT_EQ(g_destroyed, before + 2);  // the thread's object, then the late use's own
}

}  // namespace
}  // namespace tidepool::runtime
