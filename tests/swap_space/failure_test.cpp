// Driver errors in the middle of a swap never lose data: the table's functions are replaced by ones
// that fail on demand, and the buffer stays resident (or out, with its host copy) and correct.
#include <atomic>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapSpace;

std::atomic<bool> g_fail{false};

CUresult failing_dtoh_async(void*, CUdeviceptr, size_t, CUstream) { return CUDA_ERROR_LAUNCH_FAILED; }
CUresult failing_map(CUdeviceptr address, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                     unsigned long long flags) {
  return g_fail ? CUDA_ERROR_OUT_OF_MEMORY : simcuda().api.mem_map(address, size, offset, handle, flags);
}
CUresult failing_unmap(CUdeviceptr address, size_t size) {
  return g_fail ? CUDA_ERROR_UNKNOWN : simcuda().api.mem_unmap(address, size);
}
CUresult failing_htod_async(CUdeviceptr address, const void* host, size_t bytes, CUstream stream) {
  return g_fail ? CUDA_ERROR_LAUNCH_FAILED : simcuda().api.memcpy_htod_async(address, host, bytes, stream);
}
CUresult failing_event_record(CUevent event, CUstream stream) {
  return g_fail ? CUDA_ERROR_UNKNOWN : simcuda().api.event_record(event, stream);
}
// Refuses the next g_refusals requests for physical memory, as a driver short of memory for a
// moment.
std::atomic<int> g_refusals{0};
CUresult refusing_create(CUmemGenericAllocationHandle* handle, size_t size,
                         const CUmemAllocationProp* prop, unsigned long long flags) {
  if (g_refusals > 0) {
    --g_refusals;
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  return simcuda().api.mem_create(handle, size, prop, flags);
}

class SwapFailureTest : public SwapSpaceTest {
 protected:
  // A buffer of 2 MiB filled from `seed` and swapped out, with no physical memory kept: bringing it
  // back asks the driver for new memory. Its address is 0 (the failure reported) when that failed.
  FilledBuffer swapped_out_with_no_memory_kept(SwapSpace& space, uint32_t seed) {
    FilledBuffer buffer = allocate_filled(space, 2 * kMiB, seed);
    if (buffer.address == 0) return buffer;
    EXPECT_TRUE(space.swap_out(buffer.address));
    settle(space);
    space.evict(64 * kMiB);  // gives back the physical memory kept
    EXPECT_EQ(space.stats().cached_physical_bytes, 0u);
    EXPECT_TRUE(space.is_out(buffer.address));
    return buffer;
  }

  void TearDown() override {
    g_fail = false;
    g_refusals = 0;
    SwapSpaceTest::TearDown();
  }
};

TEST_F(SwapFailureTest, FailedCopyOutLeavesTheBufferResident) {
  runtime::DriverApi broken = api();
  broken.memcpy_dtoh_async = &failing_dtoh_async;
  SwapSpace space(broken, context_, 64 * kMiB);
  const auto [address, data] = allocate_filled(space, 2 * kMiB, 50);
  ASSERT_NE(address, 0u);
  EXPECT_FALSE(space.swap_out(address));
  EXPECT_EQ(space.evict(1), 0u);
  settle(space);
  const auto stats = space.stats();
  EXPECT_EQ(stats.failures, 2u);
  EXPECT_EQ(stats.swap_outs, 0u);
  EXPECT_EQ(stats.evictions, 0u);
  EXPECT_EQ(stats.resident_bytes, 2 * kMiB);
  bool missed = true;
  ASSERT_CU(space.ensure_resident(address, a_, &missed));
  EXPECT_FALSE(missed);
  EXPECT_EQ(read(address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapFailureTest, FailedUnmapAfterTheCopyKeepsTheBufferResident) {
  runtime::DriverApi broken = api();
  broken.mem_unmap = &failing_unmap;
  SwapSpace space(broken, context_, 64 * kMiB);
  const auto [address, data] = allocate_filled(space, 2 * kMiB, 51);
  ASSERT_NE(address, 0u);
  g_fail = true;
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  g_fail = false;
  const auto stats = space.stats();
  EXPECT_EQ(stats.failures, 1u);
  EXPECT_EQ(stats.swap_outs, 0u);
  EXPECT_EQ(stats.resident_bytes, 2 * kMiB);
  EXPECT_EQ(read(address, 2 * kMiB), data);
  ASSERT_TRUE(space.swap_out(address, false)) << "the program may have written it since: copied again";
  settle(space);
  EXPECT_EQ(space.stats().swap_outs, 1u);
  EXPECT_EQ(space.stats().bytes_out, 2 * kMiB);
  ASSERT_CU(space.ensure_resident(address, a_));
  EXPECT_EQ(read_on(a_, address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapFailureTest, FailedSwapInKeepsTheHostCopy) {
  runtime::DriverApi broken = api();
  broken.mem_map = &failing_map;
  broken.memcpy_htod_async = &failing_htod_async;
  SwapSpace space(broken, context_, 64 * kMiB);
  const auto [address, data] = allocate_filled(space, 2 * kMiB, 52);
  ASSERT_NE(address, 0u);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  g_fail = true;
  bool missed = false;
  EXPECT_EQ(space.ensure_resident(address, a_, &missed), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_FALSE(missed);
  EXPECT_EQ(space.swap_in(address), CUDA_ERROR_OUT_OF_MEMORY);
  broken.mem_map = simcuda().api.mem_map;  // the space keeps its own copy of the table
  EXPECT_EQ(space.swap_in(address), CUDA_ERROR_OUT_OF_MEMORY);
  settle(space);
  auto stats = space.stats();
  EXPECT_EQ(stats.failures, 3u);
  EXPECT_EQ(stats.resident_bytes, 0u);
  EXPECT_EQ(stats.pinned_bytes, 2 * kMiB);
  g_fail = false;
  ASSERT_CU(space.ensure_resident(address, a_, &missed));
  EXPECT_TRUE(missed);
  EXPECT_EQ(read_on(a_, address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapFailureTest, FailedCopyBackUnmapsAndKeepsTheHostCopy) {
  runtime::DriverApi broken = api();
  broken.memcpy_htod_async = &failing_htod_async;
  SwapSpace space(broken, context_, 64 * kMiB);
  const auto [address, data] = allocate_filled(space, 2 * kMiB, 53);
  ASSERT_NE(address, 0u);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  g_fail = true;
  EXPECT_EQ(space.swap_in(address), CUDA_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(space.stats().resident_bytes, 0u);
  EXPECT_EQ(space.stats().cached_physical_bytes, 2 * kMiB);
  g_fail = false;
  ASSERT_CU(space.ensure_resident(address, a_));
  EXPECT_EQ(read_on(a_, address, 2 * kMiB), data);
  EXPECT_EQ(space.stats().physical_creates, 1u);
  EXPECT_TRUE(space.release(address));
}

// Work that cannot start without memory waits for it: a prefetch is refused at once; work is
// refused after seven pauses of a driver that keeps refusing (the buffer still out, its host copy
// whole), and goes ahead once the refusals stop within them.
TEST_F(SwapFailureTest, WorkWaitsForMemoryTheDriverRefusesForAMoment) {
  runtime::DriverApi short_of_memory = api();
  short_of_memory.mem_create = &refusing_create;
  SwapSpace space(short_of_memory, context_, 64 * kMiB);
  const auto [address, data] = swapped_out_with_no_memory_kept(space, 54);
  ASSERT_NE(address, 0u);

  g_refusals = 1;
  EXPECT_EQ(space.swap_in(address), CUDA_ERROR_OUT_OF_MEMORY) << "a prefetch does not wait";
  EXPECT_EQ(space.stats().memory_waits, 0u);
  g_refusals = 1000;
  EXPECT_EQ(space.ensure_resident(address, a_), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(space.stats().memory_waits, 7u) << "1, 2, 4 ... 64 ms";
  EXPECT_TRUE(space.is_out(address));
  g_refusals = 3;
  bool missed = false;
  ASSERT_CU(space.ensure_resident(address, a_, &missed)) << "refused three times, then given";
  EXPECT_TRUE(missed);
  EXPECT_EQ(space.stats().memory_waits, 7u + 3u)
      << "nothing to evict: asked again after each of three pauses";
  EXPECT_EQ(read_on(a_, address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

// A stream the program destroys while work on a buffer is still queued on it: with no event to
// stand in for it (the driver refuses to record one), the host waits for that work there and then,
// so that the buffer's later swap-out still copies what the work wrote.
TEST_F(SwapFailureTest, AForgottenStreamWithNoFenceIsWaitedFor) {
  runtime::DriverApi broken = api();
  broken.event_record = &failing_event_record;
  SwapSpace space(broken, context_, 64 * kMiB);
  auto [address, data] = allocate_filled(space, 2 * kMiB, 56);
  ASSERT_NE(address, 0u);
  ASSERT_CU(space.ensure_resident(address, a_));
  hold(a_);
  sleep_then_touch(a_, address, 2 * kMiB, 0);
  for (uint8_t& byte : data) ++byte;

  std::atomic<bool> opened{false};
  std::thread opener = open_gate_later(opened);
  g_fail = true;
  space.forget_stream(a_);
  g_fail = false;
  EXPECT_TRUE(opened) << "forgotten before its work had run";
  opener.join();
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_CU(space.ensure_resident(address, b_));
  EXPECT_EQ(read_on(b_, address, 2 * kMiB), data);
  EXPECT_TRUE(space.release(address));
}

}  // namespace
}  // namespace tidepool::testing
