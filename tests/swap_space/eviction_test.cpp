// Rescue and out-of-memory: eviction takes idle buffers least recently used first, never one kept
// resident, and gives their memory back to the driver; a swap-in short of memory evicts others;
// an allocation that cannot be served changes nothing.
#include <algorithm>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapEvent;
using runtime::SwapSpace;

TEST_F(SwapSpaceTest, EvictsLeastRecentlyUsedFirstAndFreesDeviceMemory) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  CUdeviceptr buffer[4] = {};
  std::vector<uint8_t> data[4];
  for (int i = 0; i < 4; ++i) {
    ASSERT_CU(space.allocate(bytes, &buffer[i]));
    data[i] = pattern(bytes, 20 + i);
    write(buffer[i], data[i]);
  }
  for (const int i : {0, 1, 2, 3, 0}) ASSERT_CU(space.ensure_resident(buffer[i], i % 2 ? a_ : b_));
  sleep_then_touch(a_, buffer[1], bytes, 20000);  // eviction waits for it
  for (auto& byte : data[1]) ++byte;
  space.keep_resident(buffer[2]);
  const uint64_t before = free_device_memory();

  EXPECT_EQ(space.evict(bytes + 1), 2 * bytes);  // least recently used: 1, (2 is kept), 3
  EXPECT_EQ(free_device_memory(), before + 2 * bytes) << "given back to the driver, not cached";
  const auto events = space.poll();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, SwapEvent::Kind::eviction);
  EXPECT_EQ(events[0].address, buffer[1]);
  EXPECT_EQ(events[1].address, buffer[3]);
  auto stats = space.stats();
  EXPECT_EQ(stats.evictions, 2u);
  EXPECT_EQ(stats.swap_outs, 0u);
  EXPECT_EQ(stats.bytes_out, 2 * bytes);
  EXPECT_EQ(stats.resident_bytes, 2 * bytes);
  EXPECT_EQ(stats.cached_physical_bytes, 0u);
  EXPECT_FALSE(space.swap_out(buffer[2])) << "kept resident";

  EXPECT_EQ(space.evict(100 * kMiB), bytes) << "only buffer 0 is left to evict";
  for (int i = 0; i < 4; ++i) {
    ASSERT_CU(space.ensure_resident(buffer[i], a_));
    EXPECT_EQ(read_on(a_, buffer[i], bytes), data[i]) << i;
  }
  stats = space.stats();
  EXPECT_EQ(stats.on_demand_swap_ins, 3u);
  for (const CUdeviceptr b : buffer) EXPECT_TRUE(space.release(b));
}

TEST_F(SwapSpaceTest, KeptResidentBufferComesBackAndStays) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  const auto [address, data] = allocate_filled(space, bytes, 24);
  ASSERT_NE(address, 0u);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  space.keep_resident(address);
  EXPECT_EQ(space.stats().resident_bytes, bytes);
  EXPECT_EQ(space.stats().swap_ins, 1u);
  EXPECT_EQ(read(address, bytes), data) << "back before keep_resident returned";
  EXPECT_FALSE(space.swap_out(address));
  EXPECT_EQ(space.evict(100 * kMiB), 0u);
  EXPECT_EQ(space.stats().resident_bytes, bytes);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, EvictionReleasesCachedPhysicalMemoryFirst) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr kept = 0, freed = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &kept));
  ASSERT_CU(space.allocate(4 * kMiB, &freed));
  EXPECT_TRUE(space.release(freed));
  ASSERT_EQ(space.stats().cached_physical_bytes, 4 * kMiB);
  const uint64_t before = free_device_memory();
  EXPECT_EQ(space.evict(0), 4 * kMiB) << "evict(0) only gives the cache back";
  EXPECT_EQ(free_device_memory(), before + 4 * kMiB);
  EXPECT_EQ(space.stats().evictions, 0u);
  EXPECT_EQ(space.stats().cached_physical_bytes, 0u);
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB);
  EXPECT_TRUE(space.release(kept));
}

TEST_F(SwapSpaceTest, EvictionPastThePinnedLimitUsesHeapMemory) {
  SwapSpace space(api(), context_, 0);
  const uint64_t bytes = 3 * kMiB + 1;
  const auto [address, data] = allocate_filled(space, bytes, 25);
  ASSERT_NE(address, 0u);
  EXPECT_EQ(space.evict(1), 4 * kMiB);
  auto stats = space.stats();
  EXPECT_EQ(stats.evictions, 1u);
  EXPECT_EQ(stats.pageable_bytes, bytes);
  EXPECT_EQ(stats.pinned_peak_bytes, 0u);
  bool missed = false;
  ASSERT_CU(space.ensure_resident(address, a_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(a_, address, bytes), data);
  stats = space.stats();
  EXPECT_EQ(stats.pageable_bytes, 0u) << "heap copies are dropped once back";
  EXPECT_EQ(stats.bytes_in, bytes);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, OutOfMemoryAtAllocateChangesNothing) {
  SwapSpace space(api(), context_, 128 * kMiB);
  std::vector<CUdeviceptr> buffers;
  std::vector<std::vector<uint8_t>> data;
  CUdeviceptr address = 0;
  while (buffers.size() < 64) {
    const auto stats = space.stats();
    const uint64_t free = free_device_memory();
    const CUresult r = space.allocate(6 * kMiB, &address);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      EXPECT_EQ(space.stats().buffers, stats.buffers);
      EXPECT_EQ(space.stats().resident_bytes, stats.resident_bytes);
      EXPECT_EQ(free_device_memory(), free);
      break;
    }
    ASSERT_CU(r);
    buffers.push_back(address);
    data.push_back(pattern(6 * kMiB, 30 + static_cast<uint32_t>(buffers.size())));
    write(address, data.back());
  }
  ASSERT_LT(buffers.size(), 64u) << "the device is 64 MiB";
  for (size_t i = 0; i < buffers.size(); ++i) EXPECT_EQ(read(buffers[i], 6 * kMiB), data[i]);

  ASSERT_GE(space.evict(6 * kMiB), 6 * kMiB);  // rescue, then the same request fits
  ASSERT_CU(space.allocate(6 * kMiB, &address));
  EXPECT_TRUE(space.release(address));
  for (size_t i = 0; i < buffers.size(); ++i) {
    ASSERT_CU(space.ensure_resident(buffers[i], a_));
    EXPECT_EQ(read_on(a_, buffers[i], 6 * kMiB), data[i]);
    EXPECT_TRUE(space.release(buffers[i]));
  }
}

TEST_F(SwapSpaceTest, SwapInShortOfMemoryEvictsOthersButNotTheLaunchsBuffers) {
  SwapSpace space(api(), context_, 128 * kMiB);
  const uint64_t bytes = 16 * kMiB;
  CUdeviceptr buffer[5] = {};
  std::vector<uint8_t> data[5];
  for (int i = 0; i < 4; ++i) {
    ASSERT_CU(space.allocate(bytes, &buffer[i]));
    data[i] = pattern(bytes, 40 + i);
    write(buffer[i], data[i]);
  }
  ASSERT_TRUE(space.swap_out(buffer[0]));
  settle(space);
  ASSERT_CU(space.allocate(bytes, &buffer[4]));  // takes the room of buffer 0: the device is full
  EXPECT_EQ(space.stats().cached_physical_bytes, 0u);
  data[4] = pattern(bytes, 44);
  write(buffer[4], data[4]);
  // Least recently used first: 1, 2, 3, 4. A launch that needs 0 and 1 must keep 1.
  bool missed = false;
  const CUdeviceptr launch[] = {buffer[1], buffer[0]};
  ASSERT_CU(space.ensure_resident(launch, a_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(space.stats().evictions, 1u);
  const auto events = space.poll();
  EXPECT_TRUE(std::any_of(events.begin(), events.end(), [&](const SwapEvent& e) {
    return e.kind == SwapEvent::Kind::eviction && e.address == buffer[2];
  }));
  for (int i = 0; i < 5; ++i) {
    ASSERT_CU(space.ensure_resident(buffer[i], a_));
    EXPECT_EQ(read_on(a_, buffer[i], bytes), data[i]) << i;
  }
  for (const CUdeviceptr b : buffer) EXPECT_TRUE(space.release(b));
}

}  // namespace
}  // namespace tidepool::testing
