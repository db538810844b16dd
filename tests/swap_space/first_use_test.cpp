// A buffer allocated with Mapping::at_first_use holds its address only: no device memory until
// ensure_resident (or keep_resident) maps it, with nothing to copy and no miss counted; it is
// never swapped or evicted before that; its deferral and its mapping are reported, in that order;
// released unmapped, only its reservation goes back.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapEvent;
using runtime::SwapSpace;

TEST_F(SwapSpaceTest, MappedAtFirstUseHoldsNoMemoryUntilWorkNeedsIt) {
  SwapSpace space(api(), context_, 64 * kMiB);
  space.set_sequence_source([]() -> uint64_t {
    static uint64_t next = 0;
    return ++next;
  });
  const uint64_t free_before = free_device_memory();
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(4 * kMiB, &address, SwapSpace::Mapping::at_first_use));
  space.set_tag(address, 42);
  EXPECT_EQ(space.stats().resident_bytes, 0u);
  EXPECT_EQ(space.device_bytes(), 0u);
  EXPECT_EQ(free_device_memory(), free_before);
  EXPECT_EQ(space.bytes_to_map({&address, 1}), 4 * kMiB);
  EXPECT_FALSE(space.is_out(address)) << "not out: it never held data";
  EXPECT_FALSE(space.swap_out(address)) << "nothing to swap";
  EXPECT_EQ(space.evict(4 * kMiB), 0u) << "nothing to evict";

  bool missed = true;
  ASSERT_CU(space.ensure_resident(address, a_, &missed));
  EXPECT_FALSE(missed) << "a first use is not a miss";
  EXPECT_EQ(space.stats().resident_bytes, 4 * kMiB);
  EXPECT_EQ(space.bytes_to_map({&address, 1}), 0u);
  const std::vector<uint8_t> data = pattern(4 * kMiB, 7);
  write(address, data);
  EXPECT_EQ(read_on(a_, address, 4 * kMiB), data) << "mapped with access granted";

  const std::vector<SwapEvent> events = space.poll(true);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, SwapEvent::Kind::map_deferred);
  EXPECT_EQ(events[1].kind, SwapEvent::Kind::first_map);
  EXPECT_EQ(events[0].tag, 42u);
  EXPECT_EQ(events[1].tag, 42u);
  EXPECT_LT(events[0].sequence, events[1].sequence);
  const runtime::SwapStats stats = space.stats();
  EXPECT_EQ(stats.on_demand_swap_ins + stats.swap_ins + stats.swap_outs + stats.bytes_in, 0u);

  // From now on it is an ordinary buffer: out and back with its data.
  ASSERT_TRUE(space.swap_out(address));
  ASSERT_CU(api().ctx_synchronize());
  space.poll();
  ASSERT_TRUE(space.is_out(address));
  ASSERT_CU(space.ensure_resident(address, b_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(b_, address, 4 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, KeepResidentMapsABufferNotMappedYet) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address, SwapSpace::Mapping::at_first_use));
  space.keep_resident(address);
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB) << "it may be reached where we cannot see";
  write(address, pattern(2 * kMiB, 3));
  EXPECT_EQ(read(address, 2 * kMiB), pattern(2 * kMiB, 3));
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, ABufferReleasedBeforeItsFirstUseGivesBackItsReservationOnly) {
  SwapSpace space(api(), context_, 64 * kMiB);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address, SwapSpace::Mapping::at_first_use));
  EXPECT_TRUE(space.release(address));
  EXPECT_EQ(space.stats().buffers, 0u);
  EXPECT_EQ(space.device_bytes(), 0u);
  EXPECT_EQ(space.stats().failures, 0u);
  CUdeviceptr again = 0;  // everything went back: the same size fits again
  ASSERT_CU(space.allocate(2 * kMiB, &again));
  EXPECT_TRUE(space.release(again));
}

}  // namespace
}  // namespace tidepool::testing
