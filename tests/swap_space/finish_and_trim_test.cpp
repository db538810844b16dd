// trim gives cached physical memory back without waiting for queued work.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

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
