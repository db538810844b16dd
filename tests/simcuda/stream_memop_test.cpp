// Stream memory operations: writes land in stream order, waits hold a stream until their
// condition holds (set by the host or by another stream), batches queue each operation.
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

class SimcudaMemOp : public SimcudaTest {
 protected:
  void SetUp() override {
    SimcudaTest::SetUp();
    ASSERT_CU(cuMemAllocHost(reinterpret_cast<void**>(&flag_), 64));
    flag_[0] = 0;
    flag_[1] = 0;
    ASSERT_CU(cuMemAlloc(&device_, 64));
    ASSERT_CU(cuMemsetD32(device_, 0, 16));
    for (CUstream* s : {&a_, &b_}) ASSERT_CU(cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
    ASSERT_CU(cuCtxSynchronize());  // the set runs on the legacy stream, which non-blocking streams ignore
  }
  void TearDown() override {
    for (CUstream s : {a_, b_}) EXPECT_CU(cuStreamDestroy(s));
    EXPECT_CU(cuMemFree(device_));
    EXPECT_CU(cuMemFreeHost(flag_));
    SimcudaTest::TearDown();
  }
  CUdeviceptr flag(int i) { return reinterpret_cast<CUdeviceptr>(&flag_[i]); }
  uint32_t device_word(int i) {
    uint32_t v = 0;
    EXPECT_CU(cuMemcpyDtoH(&v, device_ + 4 * i, sizeof v));
    return v;
  }

  uint64_t* flag_ = nullptr;  // pinned
  CUdeviceptr device_ = 0;
  CUstream a_ = nullptr, b_ = nullptr;
};

TEST_F(SimcudaMemOp, WritesLandInStreamOrder) {
  ASSERT_CU(cuStreamWriteValue32(a_, device_, 7, 0));
  ASSERT_CU(cuStreamWriteValue64(a_, flag(1), 0x123456789ull, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(device_word(0), 7u);
  EXPECT_EQ(flag_[1], 0x123456789ull);
}

TEST_F(SimcudaMemOp, AWaitHoldsItsStreamUntilTheHostSetsTheValue) {
  ASSERT_CU(cuStreamWaitValue32(a_, flag(0), 3, CU_STREAM_WAIT_VALUE_GEQ));
  ASSERT_CU(cuStreamWriteValue32(a_, device_, 1, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(cuStreamQuery(a_), CUDA_ERROR_NOT_READY);
  std::atomic_ref(flag_[0]).store(2);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(cuStreamQuery(a_), CUDA_ERROR_NOT_READY);  // 2 < 3
  std::atomic_ref(flag_[0]).store(3);
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(device_word(0), 1u);
}

TEST_F(SimcudaMemOp, AWaitCanBeReleasedByAnotherStream) {
  ASSERT_CU(cuStreamWaitValue64(a_, flag(1), 0x10, CU_STREAM_WAIT_VALUE_AND));
  ASSERT_CU(cuStreamWriteValue32(a_, device_ + 4, 9, 0));
  ASSERT_CU(launch("simcuda_test_sleep", b_, 20000u));
  ASSERT_CU(cuStreamWriteValue64(b_, flag(1), 0x30, 0));
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(device_word(1), 9u);
}

TEST_F(SimcudaMemOp, OnTheSimulatedClockAWaitFollowsTheWriteThatReleasesIt) {
  CUevent start = nullptr, end = nullptr;
  ASSERT_CU(cuEventCreate(&start, 0));
  ASSERT_CU(cuEventCreate(&end, 0));
  ASSERT_CU(cuEventRecord(start, a_));
  ASSERT_CU(launch("simcuda_test_work", b_, 50e9, 0.0));  // 1.003 ms
  ASSERT_CU(cuStreamWriteValue32(b_, flag(0), 1, 0));
  ASSERT_CU(cuStreamWaitValue32(a_, flag(0), 1, CU_STREAM_WAIT_VALUE_EQ));
  ASSERT_CU(cuEventRecord(end, a_));
  ASSERT_CU(cuEventSynchronize(end));
  float ms = 0;
  ASSERT_CU(cuEventElapsedTime(&ms, start, end));
  EXPECT_NEAR(ms, 1.003, 1e-4);
  for (CUevent e : {start, end}) ASSERT_CU(cuEventDestroy(e));
}

TEST_F(SimcudaMemOp, ConditionsCompareAsTheDriverSays) {
  flag_[0] = 0xFFFFFFFFu;  // GEQ is cyclic: 0xFFFFFFFF is "before" 1 in 32 bits
  ASSERT_CU(cuStreamWaitValue32(a_, flag(0), 0xFFFFFFF0u, CU_STREAM_WAIT_VALUE_GEQ));
  ASSERT_CU(cuStreamWaitValue32(a_, flag(0), 0xFFFFFFFFu, CU_STREAM_WAIT_VALUE_EQ));
  ASSERT_CU(cuStreamWaitValue64(a_, flag(1), 1, CU_STREAM_WAIT_VALUE_NOR));  // ~(0 | 1) != 0
  ASSERT_CU(cuStreamSynchronize(a_));
  ASSERT_CU(cuStreamWaitValue32(a_, flag(0), 1, CU_STREAM_WAIT_VALUE_GEQ));
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(cuStreamQuery(a_), CUDA_ERROR_NOT_READY);
  std::atomic_ref(flag_[0]).store(1);
  ASSERT_CU(cuStreamSynchronize(a_));
}

TEST_F(SimcudaMemOp, BatchesQueueEveryOperation) {
  CUstreamBatchMemOpParams ops[4] = {};
  ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
  ops[0].writeValue.address = device_;
  ops[0].writeValue.value = 5;
  ops[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
  ops[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
  ops[2].waitValue.address = device_;
  ops[2].waitValue.value = 5;
  ops[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
  ops[3].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
  ops[3].writeValue.address = device_ + 8;
  ops[3].writeValue.value64 = 0x500000001ull;
  ASSERT_CU(cuStreamBatchMemOp(a_, 4, ops, 0));
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(device_word(0), 5u);
  EXPECT_EQ(device_word(2), 1u);
  EXPECT_EQ(device_word(3), 5u);
  ops[1].operation = static_cast<CUstreamBatchMemOpType>(7);
  EXPECT_EQ(cuStreamBatchMemOp(a_, 4, ops, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaMemOp, BadAddressesAndFlagsAreRefused) {
  uint32_t pageable = 0;
  EXPECT_EQ(cuStreamWriteValue32(a_, reinterpret_cast<CUdeviceptr>(&pageable), 1, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue64(a_, device_ + 4, 1, 0), CUDA_ERROR_INVALID_VALUE);  // misaligned
  EXPECT_EQ(cuStreamWriteValue32(a_, device_ + 64, 1, 0), CUDA_ERROR_INVALID_VALUE);  // past the end
  EXPECT_EQ(cuStreamWaitValue32(a_, device_, 1, 7), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuStreamWriteValue32(a_, device_, 1, 2), CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
