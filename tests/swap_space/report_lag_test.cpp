// poll() holds back the latest `report_lag` finished transfers (timing them would move simcuda's
// host clock) and returns them, times included, once later ones finish or when asked for everything;
// each names its buffer by its tag, even once the buffer is released.
#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::SwapEvent;
using runtime::SwapSpace;

TEST_F(SwapSpaceTest, PollHoldsBackTheLatestTransfersUntilAskedForEverything) {
  SwapSpace space(api(), context_, 64 * kMiB);
  space.set_report_lag(2);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address));
  write(address, pattern(2 * kMiB, 80));
  ASSERT_TRUE(space.swap_out(address));
  ASSERT_CU(api().ctx_synchronize());
  EXPECT_TRUE(space.poll().empty()) << "one finished, two held back";
  EXPECT_EQ(space.stats().swap_outs, 1u) << "finished all the same: unmapped";
  ASSERT_CU(space.swap_in(address));
  ASSERT_CU(api().ctx_synchronize());
  EXPECT_TRUE(space.poll().empty());
  ASSERT_TRUE(space.swap_out(address, false));
  ASSERT_CU(api().ctx_synchronize());
  std::vector<SwapEvent> events = space.poll();
  ASSERT_EQ(events.size(), 1u) << "the oldest of three";
  EXPECT_EQ(events[0].kind, SwapEvent::Kind::swap_out);
  EXPECT_EQ(events[0].bytes, 2 * kMiB);
  EXPECT_GT(events[0].end_ns, events[0].start_ns);
  events = space.poll(true);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, SwapEvent::Kind::swap_in);
  EXPECT_EQ(events[1].kind, SwapEvent::Kind::swap_out);
  EXPECT_EQ(events[1].bytes, 0u) << "its host copy was still current";
  EXPECT_GE(events[1].start_ns + 1, events[0].end_ns) << "the swap-out waited for the swap-in (1 ns: rounding)";
  EXPECT_TRUE(space.release(address));
}

TEST_F(SwapSpaceTest, LateReportsCarryTheTagOfABufferReleasedSince) {
  SwapSpace space(api(), context_, 64 * kMiB);
  space.set_report_lag(8);
  CUdeviceptr address = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &address));
  space.set_tag(address, 41);
  ASSERT_TRUE(space.swap_out(address));
  settle(space);
  ASSERT_CU(space.ensure_resident(address, a_));
  EXPECT_TRUE(space.release(address));
  CUdeviceptr reused = 0;
  ASSERT_CU(space.allocate(2 * kMiB, &reused));
  space.set_tag(reused, 42);
  ASSERT_TRUE(space.swap_out(reused));
  settle(space);
  const std::vector<SwapEvent> events = space.poll(true);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].tag, 41u);
  EXPECT_EQ(events[1].tag, 41u) << "the on-demand swap-in";
  EXPECT_TRUE(events[1].on_demand);
  EXPECT_EQ(events[2].tag, 42u);
  EXPECT_TRUE(space.release(reused));
}

}  // namespace
}  // namespace tidepool::testing
