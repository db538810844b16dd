// finish_oldest_swap_out: what the controller calls to keep a plan's peak (it waits for the
// swap-outs in the order they were issued and gives their memory back to the driver at once);
// device_bytes and is_out, which it decides with.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

TEST_F(SwapSpaceTest, FinishOldestSwapOutWaitsInIssueOrderAndReleases) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr first = 0;
  CUdeviceptr second = 0;
  ASSERT_CU(space.allocate(4 * kMiB, &first));
  ASSERT_CU(space.allocate(2 * kMiB, &second));
  write(first, pattern(4 * kMiB, 11));
  write(second, pattern(2 * kMiB, 12));
  ASSERT_CU(space.ensure_resident(first, a_));
  sleep_then_touch(a_, first, 4 * kMiB, 20000);
  ASSERT_TRUE(space.swap_out(first));
  ASSERT_TRUE(space.swap_out(second));
  EXPECT_EQ(space.device_bytes(), 6 * kMiB) << "both still leaving";
  EXPECT_FALSE(space.is_out(first));

  const uint64_t free_before = free_device_memory();
  // The first issued, after the touch; the second may have finished with it (it was queued behind
  // it on the same stream), and then counts in the bytes given back.
  const uint64_t first_freed = space.finish_oldest_swap_out();
  EXPECT_TRUE(first_freed == 4 * kMiB || first_freed == 6 * kMiB) << first_freed;
  EXPECT_TRUE(space.is_out(first));
  EXPECT_EQ(space.stats().cached_physical_bytes, 0u) << "released, not cached";
  EXPECT_EQ(free_device_memory(), free_before + first_freed);
  EXPECT_EQ(first_freed + space.finish_oldest_swap_out(), 6 * kMiB);
  EXPECT_TRUE(space.is_out(second));
  EXPECT_EQ(space.device_bytes(), 0u);
  EXPECT_EQ(space.finish_oldest_swap_out(), 0u) << "nothing left in flight";

  ASSERT_CU(space.ensure_resident(first, b_));
  ASSERT_CU(space.ensure_resident(second, b_));
  std::vector<uint8_t> touched = pattern(4 * kMiB, 11);
  for (uint8_t& byte : touched) ++byte;
  EXPECT_EQ(read_on(b_, first, 4 * kMiB), touched);
  EXPECT_EQ(read_on(b_, second, 2 * kMiB), pattern(2 * kMiB, 12));
  EXPECT_TRUE(space.release(first));
  EXPECT_TRUE(space.release(second));
}

TEST_F(SwapSpaceTest, FinishOldestSwapOutSkipsACancelledOne) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address));
  write(address, pattern(2 * kMiB, 13));
  hold(a_);
  ASSERT_CU(space.ensure_resident(address, a_));
  sleep_then_touch(a_, address, 2 * kMiB, 0);
  ASSERT_TRUE(space.swap_out(address));
  ASSERT_CU(space.ensure_resident(address, b_));  // used while leaving: it stays
  EXPECT_EQ(space.finish_oldest_swap_out(), 0u) << "returns at once: a is still held";
  EXPECT_EQ(space.device_bytes(), 2 * kMiB);
  EXPECT_FALSE(space.is_out(address));
  open_gate();
  ASSERT_CU(api().stream_synchronize(a_));
  settle(space);
  std::vector<uint8_t> touched = pattern(2 * kMiB, 13);
  for (uint8_t& byte : touched) ++byte;
  EXPECT_EQ(read_on(b_, address, 2 * kMiB), touched);
  EXPECT_FALSE(space.is_out(address + 2 * kMiB)) << "not ours";
  EXPECT_TRUE(space.release(address));
}

}  // namespace
}  // namespace tidepool::testing
