// Releases follow the work queued on the buffer (in flight transfers, the users' streams, the
// stream of the free), destroyed streams are still waited for, and the space is thread-safe
// (eviction excepted: it may take another thread's buffer between its ensure_resident and its
// launch, so callers keep rescue apart from launches; see docs/swap-executor.md).
#include <thread>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

TEST_F(SwapSpaceTest, ReleaseOfABufferInFlightWaitsForItsTransfer) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(8 * kMiB, &address));
  write(address, pattern(8 * kMiB, 60));
  ASSERT_CU(space.ensure_resident(address, a_));
  sleep_then_touch(a_, address, 8 * kMiB, 20000);
  ASSERT_TRUE(space.swap_out(address));
  EXPECT_TRUE(space.release(address));  // now: waits for the touch and the copy, then unmaps
  auto stats = space.stats();
  EXPECT_EQ(stats.buffers, 0u);
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.cached_physical_bytes, 8 * kMiB);
  EXPECT_EQ(stats.swap_outs, 0u) << "it was released, not swapped out";
  EXPECT_EQ(stats.pinned_bytes, 8 * kMiB) << "its pinned block went back to the pool";
  CUdeviceptr again = 0;
  ASSERT_CU(space.allocate(8 * kMiB, &again));
  ASSERT_TRUE(space.swap_out(again));
  settle(space);
  stats = space.stats();
  EXPECT_EQ(stats.pinned_peak_bytes, 8 * kMiB) << "the pooled block was reused";
  EXPECT_EQ(stats.physical_creates, 1u);
  EXPECT_TRUE(space.release(again));
}

TEST_F(SwapSpaceTest, ReleaseOnAStreamWaitsForThatStreamsWork) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address));
  hold(b_);
  sleep_then_touch(b_, address, 2 * kMiB, 0);  // not announced: the stream of the free orders it
  EXPECT_TRUE(space.release(address, b_));
  space.poll();
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB) << "still mapped while b's work is queued";
  open_gate();
  ASSERT_CU(api().stream_synchronize(b_));
  space.poll();
  EXPECT_EQ(space.stats().resident_bytes, 0u);
  EXPECT_EQ(space.stats().cached_physical_bytes, 2 * kMiB);
}

TEST_F(SwapSpaceTest, ADestroyedStreamIsStillWaitedFor) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUstream doomed = nullptr;
  ASSERT_CU(api().stream_create(&doomed, CU_STREAM_NON_BLOCKING));
  auto [address, data] = allocate_filled(space, 2 * kMiB, 61);
  ASSERT_NE(address, 0u);
  ASSERT_CU(space.ensure_resident(address, doomed));
  sleep_then_touch(doomed, address, 2 * kMiB, 30000);
  space.forget_stream(doomed);
  ASSERT_CU(api().stream_destroy(doomed));
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_CU(space.ensure_resident(address, a_));
  for (auto& byte : data) ++byte;
  EXPECT_EQ(read_on(a_, address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, ThreadsSwapTheirOwnBuffersConcurrently) {
  SwapSpace space(api(), context_, 64 * kMiB);
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      api().ctx_set_current(context_);
      CUstream stream = nullptr;
      api().stream_create(&stream, CU_STREAM_NON_BLOCKING);
      CUdeviceptr address = 0;
      if (space.allocate(2 * kMiB, &address) != CUDA_SUCCESS) {
        ++mismatches;
        return;
      }
      const auto data = pattern(2 * kMiB, 70 + static_cast<uint32_t>(t));
      api().memcpy_htod(address, data.data(), data.size());
      for (int round = 0; round < 4; ++round) {
        space.ensure_resident(address, stream);
        space.swap_out(address, round % 2 == 0);
        if (round % 2 == 1) space.swap_in(address);
        space.poll();
        if (space.ensure_resident(address, stream) != CUDA_SUCCESS || read_on(stream, address, data.size()) != data)
          ++mismatches;
      }
      space.forget_stream(stream);
      api().stream_destroy(stream);
      space.release(address);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(mismatches.load(), 0);
  settle(space);
  const auto stats = space.stats();
  EXPECT_EQ(stats.buffers, 0u);
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.failures, 0u);
}

}  // namespace
}  // namespace tidepool::testing
