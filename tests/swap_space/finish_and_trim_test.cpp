// finish_swap_out waits for one buffer's swap-out (after its users' work) and leaves its memory
// unmapped, as a plan's release_before_op assumes; trim gives cached physical memory back without
// waiting for queued work.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

TEST_F(SwapSpaceTest, FinishSwapOutWaitsForTheUsersAndUnmaps) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(4 * kMiB, &address));
  write(address, pattern(4 * kMiB, 70));
  ASSERT_CU(space.ensure_resident(address, a_));
  sleep_then_touch(a_, address, 4 * kMiB, 20000);
  ASSERT_TRUE(space.swap_out(address));
  EXPECT_EQ(space.stats().resident_bytes, 4 * kMiB) << "still leaving";
  EXPECT_TRUE(space.finish_swap_out(address));
  runtime::SwapStats stats = space.stats();
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.swap_outs, 1u);
  EXPECT_EQ(stats.cached_physical_bytes, 4 * kMiB);
  EXPECT_FALSE(space.finish_swap_out(address)) << "nothing left to wait for: it is out";
  ASSERT_CU(space.ensure_resident(address, b_));
  std::vector<uint8_t> expected = pattern(4 * kMiB, 70);
  for (uint8_t& byte : expected) ++byte;
  EXPECT_EQ(read_on(b_, address, 4 * kMiB), expected) << "the touch ran before the copy out";
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, FinishSwapOutOfAResidentBufferWaitsForNothing) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address));
  EXPECT_FALSE(space.finish_swap_out(address));
  EXPECT_FALSE(space.finish_swap_out(address + 4 * kMiB)) << "not ours";
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, TrimReleasesCachedMemoryWithoutWaitingForQueuedWork) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr spare = 0;
  CUdeviceptr busy = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &spare));
  ASSERT_CU(space.allocate(2 * kMiB, &busy));
  EXPECT_TRUE(space.release(spare));
  EXPECT_EQ(space.stats().cached_physical_bytes, 2 * kMiB);
  hold(b_);
  sleep_then_touch(b_, busy, 2 * kMiB, 0);
  EXPECT_TRUE(space.release(busy, b_));  // waits on b's held work before it unmaps
  const uint64_t free_before = free_device_memory();
  EXPECT_EQ(space.trim(), 2 * kMiB) << "returns at once: b is still held";
  EXPECT_EQ(free_device_memory(), free_before + 2 * kMiB);
  EXPECT_EQ(space.stats().cached_physical_bytes, 0u);
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB) << "the busy buffer is still mapped";
  open_gate();
  ASSERT_CU(api().stream_synchronize(b_));
  settle(space);
  EXPECT_EQ(space.stats().resident_bytes, 0u);
  EXPECT_EQ(space.trim(), 2 * kMiB);
}

}  // namespace
}  // namespace tidepool::testing
