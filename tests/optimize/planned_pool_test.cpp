// The planned pool on simcuda: a slot freed and served again is not touched by the next
// occupant's work on another stream before the work queued on the old one has run, also when the
// driver will not queue that wait (the host waits instead).
#include "runtime/optimize/planned_pool.h"

#include <atomic>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::optimize::PlannedPool;

CUresult refusing_wait(CUstream, CUevent, unsigned int) {
  return CUDA_ERROR_UNKNOWN;
}

constexpr uint64_t kBytes = 4096;

plan::PoolSection one_slot() {
  plan::PoolSection pool;
  pool.arena_bytes = pool.lower_bound_bytes = kBytes;
  pool.slots = {{0, kBytes, 0, 0, 1}};
  return pool;
}

using PlannedPoolTest = SwapSpaceTest;

TEST_F(PlannedPoolTest, TheNextOccupantWaitsForTheLastOnesWorkWhenTheDriverWillNotQueueTheWait) {
  runtime::DriverApi refusing = api();
  refusing.stream_wait_event = &refusing_wait;
  PlannedPool pool(refusing, one_slot(), 1);
  std::string_view reason;
  const CUdeviceptr first = pool.serve(0, kBytes, &reason);
  ASSERT_NE(first, 0u) << reason;
  std::vector<uint8_t> data = pattern(kBytes, 3);
  write(first, data);
  hold(a_);
  sleep_then_touch(a_, first, kBytes, 0);  // the first occupant's last work, held back
  const CUstream streams[] = {a_, b_};
  ASSERT_TRUE(pool.release(0, streams, {}));
  ASSERT_EQ(pool.serve(0, kBytes, &reason), first) << reason;

  std::atomic<bool> opened{false};
  std::thread opener = open_gate_later(opened);
  pool.before_work(0, b_);
  EXPECT_TRUE(opened) << "the new occupant's work could start before the old one's had run";
  opener.join();
  sleep_then_touch(b_, first, kBytes, 0);
  for (uint8_t& byte : data) byte = static_cast<uint8_t>(byte + 2);
  EXPECT_EQ(read_on(b_, first, kBytes), data);
}

}  // namespace
}  // namespace tidepool::testing
