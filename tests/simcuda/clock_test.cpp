// The simulated clock on small hand-computed cases: kernels take max(flops / 50 TFLOP/s,
// bytes / 2 TB/s) + 3 us on one shared compute engine, host<->device copies bytes / 50 GB/s
// + 10 us on one engine per direction; the host's clock moves only when it waits.
#include "tests/simcuda/simcuda_test_util.h"

namespace {

constexpr double kKernelMs = 1.003;  // simcuda_test_work(50e9 flops)
constexpr double kCopyMs = 1.010;    // 50,000,000 bytes over the link

class SimcudaClock : public SimcudaTest {
 protected:
  void SetUp() override {
    SimcudaTest::SetUp();
    ASSERT_CU(cuMemAllocHost(&pinned_, kBytes));
    ASSERT_CU(cuMemAlloc(&device_, kBytes));
    ASSERT_CU(cuMemAlloc(&device2_, kBytes));
    for (CUstream* s : {&a_, &b_}) ASSERT_CU(cuStreamCreate(s, CU_STREAM_DEFAULT));
    for (CUevent* e : {&start_, &end_}) ASSERT_CU(cuEventCreate(e, 0));
  }
  void TearDown() override {
    for (CUstream s : {a_, b_}) EXPECT_CU(cuStreamDestroy(s));
    for (CUevent e : {start_, end_}) EXPECT_CU(cuEventDestroy(e));
    EXPECT_CU(cuMemFree(device_));
    EXPECT_CU(cuMemFree(device2_));
    EXPECT_CU(cuMemFreeHost(pinned_));
    SimcudaTest::TearDown();
  }
  CUresult kernel_1ms(CUstream s) { return launch("simcuda_test_work", s, 50e9, 0.0); }
  CUresult upload(CUstream s) { return cuMemcpyHtoDAsync(device_, pinned_, kBytes, s); }
  CUresult download(CUstream s) { return cuMemcpyDtoHAsync(pinned_, device2_, kBytes, s); }
  // Simulated milliseconds between start_ and end_.
  float elapsed() {
    EXPECT_CU(cuEventSynchronize(end_));
    float ms = -1;
    EXPECT_CU(cuEventElapsedTime(&ms, start_, end_));
    return ms;
  }

  static constexpr size_t kBytes = 50'000'000;
  void* pinned_ = nullptr;
  CUdeviceptr device_ = 0, device2_ = 0;
  CUstream a_ = nullptr, b_ = nullptr;
  CUevent start_ = nullptr, end_ = nullptr;
};

TEST_F(SimcudaClock, KernelTimeIsItsDeclaredWork) {
  ASSERT_CU(cuEventRecord(start_, a_));
  ASSERT_CU(kernel_1ms(a_));
  ASSERT_CU(launch("simcuda_test_work", a_, 1e9, 4e9));  // bytes-bound: 2 ms + 3 us
  ASSERT_CU(cuEventRecord(end_, a_));
  EXPECT_NEAR(elapsed(), kKernelMs + 2.003, 1e-5);
}

TEST_F(SimcudaClock, CopyTimeIsBytesOverTheLinkPlusLatency) {
  ASSERT_CU(cuEventRecord(start_, a_));
  ASSERT_CU(upload(a_));
  ASSERT_CU(cuMemcpyDtoDAsync(device2_, device_, kBytes, a_));  // 2 TB/s: 25 us
  ASSERT_CU(cuEventRecord(end_, a_));
  EXPECT_NEAR(elapsed(), kCopyMs + 0.025, 1e-5);
}

TEST_F(SimcudaClock, OneStreamSerializes) {
  ASSERT_CU(cuEventRecord(start_, a_));
  ASSERT_CU(kernel_1ms(a_));
  ASSERT_CU(upload(a_));
  ASSERT_CU(cuEventRecord(end_, a_));
  EXPECT_NEAR(elapsed(), kKernelMs + kCopyMs, 1e-5);
}

TEST_F(SimcudaClock, KernelAndCopyOnTwoStreamsOverlap) {
  ASSERT_CU(cuEventRecord(start_, nullptr));  // the legacy stream: both streams start after it
  ASSERT_CU(kernel_1ms(a_));
  ASSERT_CU(upload(b_));
  ASSERT_CU(cuEventRecord(end_, nullptr));  // and it waits for both
  EXPECT_NEAR(elapsed(), kCopyMs, 1e-5);
}

TEST_F(SimcudaClock, KernelsShareOneComputeEngineAndCopiesOnePerDirection) {
  ASSERT_CU(cuEventRecord(start_, nullptr));
  ASSERT_CU(kernel_1ms(a_));
  ASSERT_CU(kernel_1ms(b_));
  ASSERT_CU(cuEventRecord(end_, nullptr));
  EXPECT_NEAR(elapsed(), 2 * kKernelMs, 1e-5);

  ASSERT_CU(cuEventRecord(start_, nullptr));
  ASSERT_CU(upload(a_));
  ASSERT_CU(download(b_));
  ASSERT_CU(cuEventRecord(end_, nullptr));
  EXPECT_NEAR(elapsed(), kCopyMs, 1e-5);

  ASSERT_CU(cuEventRecord(start_, nullptr));
  ASSERT_CU(upload(a_));
  ASSERT_CU(upload(b_));
  ASSERT_CU(cuEventRecord(end_, nullptr));
  EXPECT_NEAR(elapsed(), 2 * kCopyMs, 1e-5);
}

TEST_F(SimcudaClock, EventWaitsHoldAndKernelsRunInTheOrderTheyBecomeReady) {
  CUevent uploaded = nullptr;
  ASSERT_CU(cuEventCreate(&uploaded, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(cuEventRecord(start_, nullptr));
  ASSERT_CU(upload(a_));
  ASSERT_CU(cuEventRecord(uploaded, a_));
  ASSERT_CU(cuStreamWaitEvent(b_, uploaded, 0));
  ASSERT_CU(kernel_1ms(b_));  // ready at 1.010 ms
  ASSERT_CU(kernel_1ms(a_));  // ready at 1.010 ms too (after the upload), but called later
  CUstream c = nullptr;
  ASSERT_CU(cuStreamCreate(&c, CU_STREAM_DEFAULT));
  ASSERT_CU(kernel_1ms(c));  // ready at once although called last: runs first, while the upload runs
  ASSERT_CU(cuEventRecord(end_, nullptr));
  EXPECT_NEAR(elapsed(), kCopyMs + 2 * kKernelMs, 1e-5);
  ASSERT_CU(cuStreamSynchronize(c));
  ASSERT_CU(cuStreamDestroy(c));
  ASSERT_CU(cuEventDestroy(uploaded));
}

TEST_F(SimcudaClock, HostTimeMovesOnlyWhenItWaits) {
  ASSERT_CU(cuEventRecord(start_, a_));
  ASSERT_CU(kernel_1ms(a_));
  ASSERT_CU(cuEventRecord(end_, b_));  // b is idle: the host has not waited, so no time passed
  EXPECT_NEAR(elapsed(), 0.0, 1e-6);
  ASSERT_CU(cuStreamSynchronize(a_));
  ASSERT_CU(cuEventRecord(end_, b_));  // now the host is at the end of the kernel
  EXPECT_NEAR(elapsed(), kKernelMs, 1e-5);
}

TEST_F(SimcudaClock, ElapsedTimeNeedsTimingEvents) {
  CUevent untimed = nullptr;
  ASSERT_CU(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(cuEventRecord(untimed, a_));
  ASSERT_CU(cuEventRecord(start_, a_));
  ASSERT_CU(cuStreamSynchronize(a_));
  float ms = 0;
  EXPECT_EQ(cuEventElapsedTime(&ms, start_, untimed), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuEventElapsedTime(&ms, start_, end_), CUDA_ERROR_INVALID_HANDLE);  // end_ never recorded
  ASSERT_CU(cuEventDestroy(untimed));
}

}  // namespace
