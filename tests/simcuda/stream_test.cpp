// Streams with real asynchrony: stream order, event waits across streams, the legacy default
// stream, non-blocking streams and per-thread default streams.
#include <thread>
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

class SimcudaStream : public SimcudaTwoBuffersTest<1 << 16> {
 protected:
  // Takes real time, then sets x to value: whatever runs too early sees the old x.
  void slow_fill(CUstream stream, float value) {
    ASSERT_CU(launch("simcuda_test_sleep", stream, 50000u));
    ASSERT_CU(launch("simcuda_test_fill", stream, x_, value, kCount));
  }

};

TEST_F(SimcudaStream, WorkOnAStreamRunsInOrder) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(launch("simcuda_test_fill", s, x_, 1.0f, kCount));
  for (int i = 0; i < 100; ++i) ASSERT_CU(launch("simcuda_test_axpy", s, 2.0f, x_, y_, kCount));
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(cuStreamQuery(s), CUDA_SUCCESS);
  EXPECT_EQ(read(y_), 200.0f);
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaStream, StreamWaitEventOrdersStreams) {
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
  CUevent done = nullptr;
  ASSERT_CU(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
  slow_fill(a, 3.0f);
  ASSERT_CU(cuEventRecord(done, a));
  ASSERT_CU(cuStreamWaitEvent(b, done, 0));
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), b));
  // A record after the wait is not waited for: the wait captured the record at its call.
  slow_fill(a, 4.0f);
  ASSERT_CU(cuEventRecord(done, a));
  ASSERT_CU(cuStreamSynchronize(b));
  EXPECT_EQ(read(y_), 3.0f);
  ASSERT_CU(cuEventSynchronize(done));
  EXPECT_EQ(cuEventQuery(done), CUDA_SUCCESS);
  EXPECT_EQ(read(x_), 4.0f);
  ASSERT_CU(cuEventDestroy(done));
  ASSERT_CU(cuStreamDestroy(a));
  ASSERT_CU(cuStreamDestroy(b));
}

TEST_F(SimcudaStream, LegacyStreamWaitsForBlockingStreamsAndTheyForIt) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_DEFAULT));
  slow_fill(s, 5.0f);
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), nullptr));  // legacy stream
  ASSERT_CU(cuStreamSynchronize(nullptr));
  EXPECT_EQ(read(y_), 5.0f);

  slow_fill(CU_STREAM_LEGACY, 6.0f);
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), s));
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(read(y_), 6.0f);
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaStream, NonBlockingStreamsDoNotWaitForTheLegacyStream) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  slow_fill(nullptr, 7.0f);
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), s));
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(read(y_), 0.0f);  // copied before the legacy stream's fill ran
  ASSERT_CU(cuCtxSynchronize());
  EXPECT_EQ(read(x_), 7.0f);
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaStream, PerThreadDefaultStreams) {
  using GetId = CUresult (*)(CUstream, unsigned long long*);
  void* symbol = nullptr;
  ASSERT_CU(cuGetProcAddress("cuStreamGetId", &symbol, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, nullptr));
  const auto get_id_ptsz = reinterpret_cast<GetId>(symbol);

  unsigned long long legacy = 0, mine = 0, mine_explicit = 0, other = 0;
  ASSERT_CU(cuStreamGetId(nullptr, &legacy));
  ASSERT_CU(get_id_ptsz(nullptr, &mine));  // handle 0 means the per-thread stream in _ptsz calls
  ASSERT_CU(cuStreamGetId(CU_STREAM_PER_THREAD, &mine_explicit));
  std::thread([&] {
    EXPECT_CU(cuCtxSetCurrent(context_));
    EXPECT_CU(get_id_ptsz(nullptr, &other));
  }).join();
  EXPECT_NE(legacy, mine);
  EXPECT_EQ(mine, mine_explicit);
  EXPECT_NE(mine, other);
  EXPECT_NE(legacy, other);

  // The per-thread stream is ordered with the legacy stream, like a blocking stream.
  slow_fill(CU_STREAM_LEGACY, 8.0f);
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), CU_STREAM_PER_THREAD));
  ASSERT_CU(cuStreamSynchronize(CU_STREAM_PER_THREAD));
  EXPECT_EQ(read(y_), 8.0f);
}

TEST_F(SimcudaStream, HostFunctionsRunInStreamOrder) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::vector<int> order;
  ASSERT_CU(cuLaunchHostFunc(s, [](void* v) { static_cast<std::vector<int>*>(v)->push_back(1); }, &order));
  ASSERT_CU(launch("simcuda_test_sleep", s, 20000u));
  ASSERT_CU(cuStreamAddCallback(
      s, [](CUstream, CUresult status, void* v) { static_cast<std::vector<int>*>(v)->push_back(status == CUDA_SUCCESS ? 2 : -2); },
      &order, 0));
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaStream, PageableHostMemoryIsStagedOrWaitedFor) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  std::vector<float> host(kCount, 11.0f);
  ASSERT_CU(launch("simcuda_test_sleep", s, 30000u));
  ASSERT_CU(cuMemcpyHtoDAsync(x_, host.data(), kCount * sizeof(float), s));
  host.assign(kCount, -1.0f);  // the driver copied the pageable source at the call
  ASSERT_CU(launch("simcuda_test_sleep", s, 30000u));
  ASSERT_CU(cuMemcpyDtoHAsync(host.data(), x_, kCount * sizeof(float), s));
  EXPECT_EQ(host, std::vector<float>(kCount, 11.0f));  // into pageable memory: done when the call returns
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaStream, HandlesAreChecked) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreateWithPriority(&s, 0, -3));
  int priority = 0;
  ASSERT_CU(cuStreamGetPriority(s, &priority));
  EXPECT_EQ(priority, -3);
  ASSERT_CU(launch("simcuda_test_sleep", s, 20000u));
  ASSERT_CU(cuStreamDestroy(s));  // queued work still runs
  EXPECT_EQ(cuStreamDestroy(s), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuStreamSynchronize(s), CUDA_ERROR_INVALID_HANDLE);
  CUevent e = nullptr;
  ASSERT_CU(cuEventCreate(&e, 0));
  EXPECT_EQ(cuEventQuery(e), CUDA_SUCCESS);  // never recorded
  ASSERT_CU(cuEventDestroy(e));
  EXPECT_EQ(cuEventRecord(e, nullptr), CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(SimcudaStream, ManyHostThreadsOnManyStreams) {
  std::vector<std::thread> threads;
  std::vector<CUdeviceptr> buffers(4);
  for (auto& b : buffers) ASSERT_CU(cuMemAlloc(&b, kCount * sizeof(float)));
  for (size_t t = 0; t < buffers.size(); ++t) {
    threads.emplace_back([&, t] {
      EXPECT_CU(cuCtxSetCurrent(context_));
      CUstream s = nullptr;
      EXPECT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
      EXPECT_CU(launch("simcuda_test_fill", s, buffers[t], static_cast<float>(t), kCount));
      for (int i = 0; i < 10; ++i) EXPECT_CU(launch("simcuda_test_axpy", s, 1.0f, buffers[t], buffers[t], kCount));
      EXPECT_CU(cuStreamSynchronize(s));
      EXPECT_CU(cuStreamDestroy(s));
    });
  }
  for (auto& t : threads) t.join();
  for (size_t t = 0; t < buffers.size(); ++t) {
    EXPECT_EQ(read(buffers[t]), static_cast<float>(t) * 1024.0f);
    ASSERT_CU(cuMemFree(buffers[t]));
  }
}

}  // namespace
