// StreamOrder on simcuda: arena frees made while the program used one stream record no event, and
// a stream seen later waits for the work queued before them (one fence); without such frees a new
// stream waits for nothing; a stream that cannot be ordered (capturing) is reported.
#include "runtime/optimize/stream_order.h"

#include <chrono>
#include <thread>

#include "tests/swap_space/swap_space_fixture.h"

namespace tidepool::testing {
namespace {

using runtime::optimize::StreamOrder;

CUstream g_capturing = nullptr;  // the stream the tests pretend is capturing
bool pretend_capturing(CUstream stream) { return stream != nullptr && stream == g_capturing; }

class StreamOrderTest : public SwapSpaceTest {
 protected:
  void SetUp() override {
    SwapSpaceTest::SetUp();
    g_capturing = nullptr;
    ASSERT_CU(api().mem_alloc(&buffer_, kBytes));
    write(buffer_, pattern(kBytes, 5));
  }
  void TearDown() override {
    if (gate_ != nullptr) open_gate();
    EXPECT_CU(api().ctx_synchronize());
    EXPECT_CU(api().mem_free(buffer_));
    SwapSpaceTest::TearDown();
  }
  // The buffer as the touches on it left it (each adds 1 to every byte).
  std::vector<uint8_t> touched(int times) const {
    std::vector<uint8_t> bytes = pattern(kBytes, 5);
    for (uint8_t& byte : bytes) byte = static_cast<uint8_t>(byte + times);
    return bytes;
  }
  // Whether the work queued on `stream` so far finishes within `limit`.
  bool finishes(CUstream stream, std::chrono::milliseconds limit) {
    CUevent event = nullptr;
    EXPECT_CU(api().event_create(&event, CU_EVENT_DISABLE_TIMING));
    EXPECT_CU(api().event_record(event, stream));
    const auto deadline = std::chrono::steady_clock::now() + limit;
    bool done = false;
    while (!(done = api().event_query(event) == CUDA_SUCCESS) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_CU(api().event_destroy(event));
    return done;
  }
  static constexpr std::chrono::milliseconds kHeld{30};     // held work cannot finish in any time
  static constexpr std::chrono::milliseconds kFree{10000};  // free work finishes well within it

  static constexpr uint64_t kBytes = 4096;
  CUdeviceptr buffer_ = 0;
};

TEST_F(StreamOrderTest, InOrderWithOneStreamOnly) {
  StreamOrder order(api(), &pretend_capturing);
  EXPECT_TRUE(order.in_order()) << "no stream yet";
  EXPECT_TRUE(order.use(a_));
  EXPECT_TRUE(order.use(a_));
  EXPECT_TRUE(order.in_order());
  EXPECT_TRUE(order.use(b_));
  EXPECT_FALSE(order.in_order());
  EXPECT_EQ(order.all().size(), 2u);
  StreamOrder per_thread(api(), &pretend_capturing);
  EXPECT_TRUE(per_thread.use(CU_STREAM_PER_THREAD));
  EXPECT_FALSE(per_thread.in_order()) << "one handle, a different stream in each thread";
}

TEST_F(StreamOrderTest, NewStreamWaitsForWorkBeforeInOrderFrees) {
  StreamOrder order(api(), &pretend_capturing);
  ASSERT_TRUE(order.use(a_));
  hold(a_);  // a's work so far (before the free) cannot finish until the gate opens
  order.freed_in_order();
  ASSERT_TRUE(order.use(b_));
  sleep_then_touch(b_, buffer_, kBytes, 0);
  EXPECT_FALSE(finishes(b_, kHeld)) << "b ran before a's work";
  open_gate();
  EXPECT_EQ(read_on(b_, buffer_, kBytes), touched(1));
}

TEST_F(StreamOrderTest, NewStreamWaitsForNothingWithoutInOrderFrees) {
  StreamOrder order(api(), &pretend_capturing);
  ASSERT_TRUE(order.use(a_));
  hold(a_);
  ASSERT_TRUE(order.use(b_));
  sleep_then_touch(b_, buffer_, kBytes, 0);
  EXPECT_TRUE(finishes(b_, kFree)) << "a is still held";
  EXPECT_EQ(read_on(b_, buffer_, kBytes), touched(1));
}

TEST_F(StreamOrderTest, ForgettingTheStreamFencesItsFrees) {
  StreamOrder order(api(), &pretend_capturing);
  ASSERT_TRUE(order.use(a_));
  hold(a_);
  order.freed_in_order();
  EXPECT_TRUE(order.forget(a_));
  EXPECT_TRUE(order.all().empty());
  ASSERT_TRUE(order.use(b_));
  sleep_then_touch(b_, buffer_, kBytes, 0);
  EXPECT_FALSE(finishes(b_, kHeld)) << "b ran before the forgotten stream's work";
  open_gate();
  EXPECT_EQ(read_on(b_, buffer_, kBytes), touched(1));
}

TEST_F(StreamOrderTest, CapturingOldStreamCannotBeFenced) {
  StreamOrder order(api(), &pretend_capturing);
  ASSERT_TRUE(order.use(a_));
  order.freed_in_order();
  g_capturing = a_;
  EXPECT_FALSE(order.use(b_)) << "nothing may be recorded on a capturing stream";
  EXPECT_TRUE(order.use(b_)) << "already known";
}

}  // namespace
}  // namespace tidepool::testing
