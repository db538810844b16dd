// The reader-writer spin lock of the live-allocation map: writers exclude everyone, readers only
// writers, and a waiting writer keeps new readers out.
#include <atomic>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/spin_shared_mutex.h"

namespace tidepool::runtime {
namespace {

TEST(SpinSharedMutex, WritersExcludeReadersAndEachOther) {
  SpinSharedMutex mutex;
  uint64_t first = 0, second = 0;  // always equal outside the lock
  std::atomic<bool> torn{false};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20000; ++i) {
        const std::unique_lock lock(mutex);
        ++first;
        ++second;
      }
    });
  }
  threads.emplace_back([&] {
    for (int i = 0; i < 20000; ++i) {
      const std::shared_lock lock(mutex);
      if (first != second) torn = true;
    }
  });
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(torn);
  EXPECT_EQ(first, 40000u);
  EXPECT_EQ(second, 40000u);
}

TEST(SpinSharedMutex, ReadersShareAndTryLockRespectsHolders) {
  SpinSharedMutex mutex;
  ASSERT_TRUE(mutex.try_lock_shared());
  EXPECT_TRUE(mutex.try_lock_shared());
  EXPECT_FALSE(mutex.try_lock());
  mutex.unlock_shared();
  mutex.unlock_shared();
  ASSERT_TRUE(mutex.try_lock());
  EXPECT_FALSE(mutex.try_lock_shared());
  EXPECT_FALSE(mutex.try_lock());
  mutex.unlock();
  EXPECT_TRUE(mutex.try_lock_shared());
  mutex.unlock_shared();
}

TEST(SpinSharedMutex, WaitingWriterKeepsNewReadersOut) {
  SpinSharedMutex mutex;
  mutex.lock_shared();
  std::atomic<bool> written{false};
  std::thread writer([&] {
    const std::unique_lock lock(mutex);
    written = true;
  });
  // Once the writer waits, no new reader gets in (it would wait behind it).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  bool kept_out = false;
  while (!kept_out && std::chrono::steady_clock::now() < deadline) {
    if (mutex.try_lock_shared()) {
      mutex.unlock_shared();
      std::this_thread::yield();
    } else {
      kept_out = true;
    }
  }
  EXPECT_TRUE(kept_out);
  EXPECT_FALSE(written);
  mutex.unlock_shared();
  writer.join();
  EXPECT_TRUE(written);
  EXPECT_TRUE(mutex.try_lock_shared());
  mutex.unlock_shared();
}

}  // namespace
}  // namespace tidepool::runtime
