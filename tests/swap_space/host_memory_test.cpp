// Pinned host memory and physical device memory are pooled, bounded and counted exactly: the
// pinned limit is honoured, a current host copy is not copied again (but one that work may have
// written since is, whatever the caller says), and swapping recycles both.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

TEST_F(SwapSpaceTest, WorkThatMayWriteMakesTheHostCopyStale) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  auto [address, data] = allocate_filled(space, bytes, 14);
  ASSERT_NE(address, 0u);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_CU(space.swap_in(address));
  ASSERT_CU(space.ensure_resident(address, a_, nullptr, SwapSpace::Use::reads));
  EXPECT_EQ(read_on(a_, address, bytes), data);
  settle(space);
  // Resident, and a_ one of its users: this one takes the fast path, without the lock.
  ASSERT_CU(space.ensure_resident(address, a_));
  sleep_then_touch(a_, address, bytes, 0);
  for (uint8_t& byte : data) ++byte;
  ASSERT_TRUE(space.swap_out(address, false))
      << "a caller that expects the host copy to be current";
  settle(space);
  EXPECT_EQ(space.stats().bytes_out, 2 * bytes) << "copied again: the kernel may have written it";
  ASSERT_CU(space.ensure_resident(address, a_));
  EXPECT_EQ(read_on(a_, address, bytes), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, PinnedLimitIsHonouredAndTheBufferStays) {
  SwapSpace space(api(), context_, 6 * kMiB);
  const uint64_t bytes = 4 * kMiB;
  CUdeviceptr first = 0, second = 0;
  ASSERT_CU(space.allocate(bytes, &first));
  ASSERT_CU(space.allocate(bytes, &second));
  const auto first_data = pattern(bytes, 10), second_data = pattern(bytes, 11);
  write(first, first_data);
  write(second, second_data);

  ASSERT_TRUE(space.swap_out(first));
  EXPECT_FALSE(space.swap_out(second)) << "8 MiB of pinned memory is past the 6 MiB limit";
  settle(space);
  auto stats = space.stats();
  EXPECT_EQ(stats.swap_outs, 1u);
  EXPECT_EQ(stats.pinned_bytes, bytes);
  EXPECT_EQ(stats.pinned_peak_bytes, bytes);
  EXPECT_EQ(stats.pinned_limit_bytes, 6 * kMiB);
  EXPECT_EQ(stats.failures, 0u) << "a refusal, not a driver error";
  EXPECT_EQ(stats.resident_bytes, bytes);
  EXPECT_EQ(read(second, bytes), second_data) << "the refused buffer is untouched and usable";

  bool missed = false;
  ASSERT_CU(space.ensure_resident(first, a_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(a_, first, bytes), first_data);
  // The host copy of the resident first buffer is a shortcut only: the second may take its room.
  ASSERT_TRUE(space.swap_out(second));
  settle(space);
  stats = space.stats();
  EXPECT_EQ(stats.pinned_bytes, bytes);
  EXPECT_LE(stats.pinned_peak_bytes, 6 * kMiB);
  ASSERT_CU(space.ensure_resident(second, a_));
  EXPECT_EQ(read_on(a_, second, bytes), second_data);
  EXPECT_TRUE(space.release(first));
  EXPECT_TRUE(space.release(second));
}

TEST_F(SwapSpaceTest, NoPinnedMemoryMeansNoSwapAndNoLoss) {
  SwapSpace space(api(), context_, 0);
  const auto [address, data] = allocate_filled(space, 2 * kMiB, 12);
  ASSERT_NE(address, 0u);
  EXPECT_FALSE(space.swap_out(address));
  EXPECT_FALSE(space.swap_out(address, false));
  settle(space);
  EXPECT_EQ(space.stats().swap_outs, 0u);
  EXPECT_EQ(space.stats().pinned_peak_bytes, 0u);
  EXPECT_EQ(read(address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, CurrentHostCopyIsNotCopiedAgain) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 3 * kMiB;
  const auto [address, data] = allocate_filled(space, bytes, 13);
  ASSERT_NE(address, 0u);
  ASSERT_TRUE(space.swap_out(address, false)) << "never copied: it is copied whatever copy_out says";
  settle(space);
  EXPECT_EQ(space.stats().bytes_out, bytes);

  ASSERT_CU(space.swap_in(address));
  ASSERT_CU(space.ensure_resident(address, a_, nullptr, SwapSpace::Use::reads));
  EXPECT_EQ(read_on(a_, address, bytes), data);  // only read since it came back
  ASSERT_TRUE(space.swap_out(address, false));
  settle(space);
  auto stats = space.stats();
  EXPECT_EQ(stats.swap_outs, 2u);
  EXPECT_EQ(stats.bytes_out, bytes) << "the second swap-out only unmapped";
  EXPECT_EQ(stats.resident_bytes, 0u);

  bool missed = false;
  ASSERT_CU(space.ensure_resident(address, a_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(a_, address, bytes), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, SwappingRecyclesPhysicalAndPinnedMemory) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 4 * kMiB - 100;
  auto [address, data] = allocate_filled(space, bytes, 14);
  ASSERT_NE(address, 0u);
  for (int round = 0; round < 5; ++round) {
    ASSERT_CU(space.ensure_resident(address, a_));
    sleep_then_touch(a_, address, bytes, 0);
    for (auto& byte : data) ++byte;
    ASSERT_TRUE(space.swap_out(address));
    settle(space);
    ASSERT_CU(space.swap_in(address));
    settle(space);
  }
  EXPECT_EQ(read(address, bytes), data);
  const auto stats = space.stats();
  EXPECT_EQ(stats.swap_outs, 5u);
  EXPECT_EQ(stats.swap_ins, 5u);
  EXPECT_EQ(stats.bytes_out, 5 * bytes);
  EXPECT_EQ(stats.bytes_in, 5 * bytes);
  EXPECT_EQ(stats.physical_creates, 1u) << "the same physical memory mapped again every time";
  EXPECT_EQ(stats.pinned_peak_bytes, 4 * kMiB);
  EXPECT_EQ(stats.pinned_bytes, 4 * kMiB);
  EXPECT_EQ(stats.cached_physical_bytes, 0u);
  EXPECT_TRUE(space.release(address));
}

}  // namespace
}  // namespace tidepool::testing
