// Swapping out and back in keeps every byte: on demand (a miss), planned (asynchronous, the
// consumer waits on the copy), ordered after the users' queued work, and timed on the device clock.
#include <algorithm>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapEvent;
using runtime::SwapSpace;

TEST_F(SwapSpaceTest, AllocatesItsOwnReservationAndReleasesIt) {
  SwapSpace space(api(), context_, 64 * kMiB);
  EXPECT_EQ(space.granularity(), 2 * kMiB);
  const uint64_t before = free_device_memory();
  CUdeviceptr address = 0;
  const uint64_t bytes = 3 * kMiB + 5;
  ASSERT_CU(space.allocate(bytes, &address));
  EXPECT_EQ(address % space.granularity(), 0u);
  EXPECT_EQ(free_device_memory(), before - 4 * kMiB);
  EXPECT_EQ(space.find(address + bytes - 1), std::make_pair(address, bytes));
  EXPECT_FALSE(space.find(address + bytes).has_value());
  EXPECT_FALSE(space.find(address - 1).has_value());
  const auto data = pattern(bytes, 1);
  write(address, data);
  EXPECT_EQ(read(address, bytes), data);
  EXPECT_EQ(space.stats().buffers, 1u);
  EXPECT_EQ(space.stats().resident_bytes, 4 * kMiB);

  EXPECT_FALSE(space.release(address + 1));
  EXPECT_TRUE(space.release(address));
  EXPECT_FALSE(space.release(address));
  EXPECT_FALSE(space.find(address).has_value());
  const auto stats = space.stats();
  EXPECT_EQ(stats.buffers, 0u);
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.cached_physical_bytes, 4 * kMiB);  // kept for the next buffer of its size

  CUdeviceptr again = 0;
  ASSERT_CU(space.allocate(4 * kMiB, &again));
  EXPECT_EQ(space.stats().physical_creates, 1u);
  EXPECT_EQ(space.stats().cached_physical_bytes, 0u);
  EXPECT_TRUE(space.release(again));
  EXPECT_EQ(space.allocate(0, &again), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SwapSpaceTest, OnDemandRoundTripIsBitIdentical) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 5 * kMiB + 123;
  const auto [address, data] = allocate_filled(space, bytes, 2);
  ASSERT_NE(address, 0u);
  ASSERT_CU(space.ensure_resident(address + 100, a_));
  const uint64_t before = free_device_memory();

  ASSERT_TRUE(space.swap_out(address));
  EXPECT_FALSE(space.swap_out(address)) << "already leaving";
  const auto out_events = settle(space);
  ASSERT_EQ(out_events.size(), 1u);
  EXPECT_EQ(out_events[0].kind, SwapEvent::Kind::swap_out);
  EXPECT_EQ(out_events[0].address, address);
  EXPECT_EQ(out_events[0].bytes, bytes);
  // simcuda's clock: a copy takes bytes / 50 GB/s + 10 us.
  const double copy_ns = static_cast<double>(bytes) / 50.0 + 10000.0;
  EXPECT_NEAR(static_cast<double>(out_events[0].end_ns - out_events[0].start_ns), copy_ns, 10.0);
  auto stats = space.stats();
  EXPECT_EQ(stats.swap_outs, 1u);
  EXPECT_EQ(stats.bytes_out, bytes);
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.cached_physical_bytes, 6 * kMiB);
  EXPECT_EQ(stats.pinned_bytes, (bytes + 4095) / 4096 * 4096);
  EXPECT_EQ(free_device_memory(), before) << "unmapped memory is cached, not given back";

  bool missed = false;
  ASSERT_CU(space.ensure_resident(address + bytes - 1, b_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(b_, address, bytes), data);
  const auto in_events = space.poll();
  ASSERT_EQ(in_events.size(), 1u);
  EXPECT_EQ(in_events[0].kind, SwapEvent::Kind::swap_in);
  EXPECT_TRUE(in_events[0].on_demand);
  EXPECT_GE(in_events[0].start_ns, out_events[0].end_ns);
  EXPECT_NEAR(static_cast<double>(in_events[0].end_ns - in_events[0].start_ns), copy_ns, 10.0);
  stats = space.stats();
  EXPECT_EQ(stats.on_demand_swap_ins, 1u);
  EXPECT_EQ(stats.swap_ins, 0u);
  EXPECT_EQ(stats.bytes_in, bytes);
  EXPECT_EQ(stats.resident_bytes, 6 * kMiB);
  EXPECT_EQ(stats.physical_creates, 1u);
  EXPECT_EQ(stats.failures, 0u);
  EXPECT_EQ(space.ensure_resident(address + bytes, a_), CUDA_ERROR_NOT_FOUND);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, SwapOutFollowsTheUsersQueuedWork) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  auto [address, data] = allocate_filled(space, bytes, 3);
  ASSERT_NE(address, 0u);
  ASSERT_CU(space.ensure_resident(address, a_));
  hold(a_);
  sleep_then_touch(a_, address, bytes, 0);  // still queued when the swap-out is
  ASSERT_TRUE(space.swap_out(address));
  space.poll();
  EXPECT_EQ(space.stats().resident_bytes, 2 * kMiB) << "its copy waits for stream a";
  open_gate();
  settle(space);
  EXPECT_EQ(space.stats().swap_outs, 1u);

  bool missed = false;
  ASSERT_CU(space.ensure_resident(address, b_, &missed));
  EXPECT_TRUE(missed);
  for (auto& byte : data) ++byte;  // the touch ran before the copy out
  EXPECT_EQ(read_on(b_, address, bytes), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, SwapOutFollowsTheWorkOfEveryUserStream) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  auto [address, data] = allocate_filled(space, bytes, 6);
  ASSERT_NE(address, 0u);
  std::vector<CUstream> streams(6);  // more users than the fast path remembers
  for (CUstream& stream : streams) ASSERT_CU(api().stream_create(&stream, CU_STREAM_NON_BLOCKING));
  for (int round = 0; round < 2; ++round) {
    for (size_t i = 0; i < streams.size(); ++i) {
      ASSERT_CU(space.ensure_resident(address, streams[i]));
      sleep_then_touch(streams[i], address, bytes, static_cast<unsigned>(5000 * (i + 1)));
      ASSERT_CU(api().stream_synchronize(streams[i]));  // one at a time: the touches must not race
    }
  }
  ASSERT_CU(space.ensure_resident(address, streams.back()));
  sleep_then_touch(streams.back(), address, bytes, 30000);  // queued, not finished
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_CU(space.ensure_resident(address, a_));
  for (auto& byte : data) byte = static_cast<uint8_t>(byte + 2 * streams.size() + 1);
  EXPECT_EQ(read_on(a_, address, bytes), data);
  for (CUstream stream : streams) ASSERT_CU(api().stream_destroy(stream));
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, PlannedSwapInIsWaitedOnByTheConsumerStream) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 4 * kMiB + 7;
  CUdeviceptr address = 0, blocker = 0;
  ASSERT_CU(space.allocate(bytes, &address));
  ASSERT_CU(space.allocate(2 * kMiB, &blocker));
  const auto data = pattern(bytes, 4);
  write(address, data);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_EQ(space.evict(1), 6 * kMiB) << "its physical memory goes back: it returns to fresh pages";

  // The copy stream is held up behind a swap-out that waits for 50 ms of work on stream a.
  ASSERT_CU(space.ensure_resident(blocker, a_));
  sleep_then_touch(a_, blocker, 2 * kMiB, 50000);
  ASSERT_TRUE(space.swap_out(blocker));
  ASSERT_CU(space.swap_in(address));
  ASSERT_CU(space.swap_in(address)) << "already coming back: nothing more to do";
  bool missed = true;
  ASSERT_CU(space.ensure_resident(address, b_, &missed));
  EXPECT_FALSE(missed);
  EXPECT_EQ(read_on(b_, address, bytes), data) << "stream b read before the copy back";
  // The blocker's swap-out and this swap-in run on different streams: either may be reported first.
  const auto events = settle(space);
  ASSERT_EQ(events.size(), 2u);
  const auto swap_in = std::ranges::find(events, SwapEvent::Kind::swap_in, &SwapEvent::kind);
  ASSERT_NE(swap_in, events.end());
  EXPECT_EQ(swap_in->address, address);
  EXPECT_FALSE(swap_in->on_demand);
  EXPECT_EQ(std::ranges::count(events, SwapEvent::Kind::swap_out, &SwapEvent::kind), 1);
  const auto stats = space.stats();
  EXPECT_EQ(stats.swap_ins, 1u);
  EXPECT_EQ(stats.on_demand_swap_ins, 0u);
  EXPECT_EQ(stats.bytes_in, bytes);
  EXPECT_TRUE(space.release(address));
  EXPECT_TRUE(space.release(blocker));
}

TEST_F(SwapSpaceTest, UseWhileLeavingCancelsTheSwapOut) {
  SwapSpace space(api(), context_, 64 * kMiB);
  const uint64_t bytes = 2 * kMiB;
  auto [address, data] = allocate_filled(space, bytes, 5);
  ASSERT_NE(address, 0u);
  ASSERT_CU(space.ensure_resident(address, a_));
  hold(a_);
  sleep_then_touch(a_, address, bytes, 0);
  ASSERT_TRUE(space.swap_out(address));
  bool missed = true;
  ASSERT_CU(space.ensure_resident(address, b_, &missed));  // the copy out waits for stream a
  EXPECT_FALSE(missed);
  open_gate();
  ASSERT_CU(api().stream_synchronize(a_));  // the touches must not race
  sleep_then_touch(b_, address, bytes, 0);
  settle(space);
  const auto stats = space.stats();
  EXPECT_EQ(stats.swap_outs, 0u);
  EXPECT_EQ(stats.resident_bytes, 2 * kMiB);
  for (auto& byte : data) byte = static_cast<uint8_t>(byte + 2);
  EXPECT_EQ(read(address, bytes), data);
  EXPECT_TRUE(space.release(address));
}

}  // namespace
}  // namespace tidepool::testing
