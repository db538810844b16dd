// Stream capture and graphs: captured work is recorded, not run; a graph launch replays it (on
// the simulated clock too); events fork and join streams into a capture; operations that cannot
// be captured invalidate it, as the real driver does.
#include "tests/simcuda/simcuda_test_util.h"

namespace {

class SimcudaGraph : public SimcudaTwoBuffersTest<1 << 12> {
 protected:
  void SetUp() override {
    SimcudaTwoBuffersTest::SetUp();
    for (CUstream* s : {&a_, &b_}) ASSERT_CU(cuStreamCreate(s, CU_STREAM_NON_BLOCKING));
    for (CUevent* e : {&fork_, &join_}) ASSERT_CU(cuEventCreate(e, CU_EVENT_DISABLE_TIMING));
  }
  void TearDown() override {
    for (CUstream s : {a_, b_}) EXPECT_CU(cuStreamDestroy(s));
    for (CUevent e : {fork_, join_}) EXPECT_CU(cuEventDestroy(e));
    SimcudaTwoBuffersTest::TearDown();
  }
  CUstreamCaptureStatus status(CUstream s) {
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_INVALIDATED;
    EXPECT_CU(cuStreamIsCapturing(s, &st));
    return st;
  }
  // Captures on a_: x = 1, then y += 2 x.
  CUgraph capture_fill_axpy() {
    EXPECT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
    EXPECT_CU(launch("simcuda_test_fill", a_, x_, 1.0f, kCount));
    EXPECT_CU(launch("simcuda_test_axpy", a_, 2.0f, x_, y_, kCount));
    CUgraph graph = nullptr;
    EXPECT_CU(cuStreamEndCapture(a_, &graph));
    return graph;
  }

  CUstream a_ = nullptr, b_ = nullptr;
  CUevent fork_ = nullptr, join_ = nullptr;
};

TEST_F(SimcudaGraph, CapturedWorkRunsOnlyWhenTheGraphIsLaunched) {
  CUgraph graph = capture_fill_axpy();
  ASSERT_NE(graph, nullptr);
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(read(x_), 0.0f);
  EXPECT_EQ(read(y_), 0.0f);
  CUgraphExec exec = nullptr;
  ASSERT_CU(cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(cuGraphLaunch(exec, b_));
  ASSERT_CU(cuStreamSynchronize(b_));
  EXPECT_EQ(read(y_), 2.0f);
  ASSERT_CU(cuGraphLaunch(exec, b_));
  ASSERT_CU(cuGraphLaunch(exec, b_));
  ASSERT_CU(cuStreamSynchronize(b_));
  EXPECT_EQ(read(y_), 6.0f);
  ASSERT_CU(cuGraphExecDestroy(exec));
  ASSERT_CU(cuGraphDestroy(graph));
  EXPECT_EQ(cuGraphDestroy(graph), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphLaunch(exec, b_), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaGraph, CopiesAndSetsAreCapturedToo) {
  float host[4] = {};
  ASSERT_CU(cuMemHostRegister(host, sizeof host, 0));
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(cuMemsetD32Async(x_, 0x40400000u, kCount, a_));  // 3.0f
  ASSERT_CU(cuMemcpyDtoDAsync(y_, x_, kCount * sizeof(float), a_));
  ASSERT_CU(cuMemcpyDtoHAsync(host, y_, sizeof host, a_));
  CUgraph graph = nullptr;
  ASSERT_CU(cuStreamEndCapture(a_, &graph));
  EXPECT_EQ(host[0], 0.0f);
  CUgraphExec exec = nullptr;
  ASSERT_CU(cuGraphInstantiateWithFlags(&exec, graph, 0));
  ASSERT_CU(cuGraphLaunch(exec, a_));
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(host[3], 3.0f);
  ASSERT_CU(cuGraphExecDestroy(exec));
  ASSERT_CU(cuGraphDestroy(graph));
  ASSERT_CU(cuMemHostUnregister(host));
}

TEST_F(SimcudaGraph, CaptureStatusAndInfo) {
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_NONE);
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  EXPECT_EQ(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_ILLEGAL_STATE);
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_EQ(status(b_), CU_STREAM_CAPTURE_STATUS_NONE);
  CUstreamCaptureStatus st{};
  cuuint64_t id = 0;
  CUgraph graph = nullptr;
  const CUgraphNode* deps = nullptr;
  size_t count = 7;
  ASSERT_CU(cuStreamGetCaptureInfo(a_, &st, &id, &graph, &deps, nullptr, &count));
  EXPECT_EQ(st, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(id, 0u);
  EXPECT_NE(graph, nullptr);
  EXPECT_EQ(count, 0u);
  ASSERT_CU(launch("simcuda_test_fill", a_, x_, 1.0f, kCount));
  cuuint64_t same_id = 0;
  ASSERT_CU(cuStreamGetCaptureInfo(a_, &st, &same_id, nullptr, &deps, nullptr, &count));
  EXPECT_EQ(same_id, id);
  ASSERT_EQ(count, 1u);
  EXPECT_NE(deps[0], nullptr);
  CUgraph captured = nullptr;
  EXPECT_EQ(cuStreamEndCapture(b_, &captured), CUDA_ERROR_ILLEGAL_STATE);
  ASSERT_CU(cuStreamEndCapture(a_, &captured));
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_NONE);
  ASSERT_CU(cuGraphDestroy(captured));
}

TEST_F(SimcudaGraph, EventsForkAndJoinStreamsIntoTheCapture) {
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(launch("simcuda_test_fill", a_, x_, 2.0f, kCount));
  ASSERT_CU(cuEventRecord(fork_, a_));
  ASSERT_CU(cuStreamWaitEvent(b_, fork_, 0));
  EXPECT_EQ(status(b_), CU_STREAM_CAPTURE_STATUS_ACTIVE);
  ASSERT_CU(launch("simcuda_test_axpy", b_, 1.0f, x_, y_, kCount));
  ASSERT_CU(cuEventRecord(join_, b_));
  ASSERT_CU(cuStreamWaitEvent(a_, join_, 0));
  ASSERT_CU(launch("simcuda_test_axpy", a_, 1.0f, y_, x_, kCount));  // x = 2 + 2
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(b_, &graph), CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
  ASSERT_CU(cuStreamEndCapture(a_, &graph));
  EXPECT_EQ(status(b_), CU_STREAM_CAPTURE_STATUS_NONE);
  CUgraphExec exec = nullptr;
  ASSERT_CU(cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(cuGraphLaunch(exec, a_));
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(read(y_), 2.0f);
  EXPECT_EQ(read(x_), 4.0f);
  ASSERT_CU(cuGraphExecDestroy(exec));
  ASSERT_CU(cuGraphDestroy(graph));
}

TEST_F(SimcudaGraph, AForkedStreamMustJoinBeforeTheCaptureEnds) {
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(cuEventRecord(fork_, a_));
  ASSERT_CU(cuStreamWaitEvent(b_, fork_, 0));
  ASSERT_CU(launch("simcuda_test_fill", b_, x_, 1.0f, kCount));
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(a_, &graph), CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
  EXPECT_EQ(graph, nullptr);
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_NONE);
  EXPECT_EQ(status(b_), CU_STREAM_CAPTURE_STATUS_NONE);
}

TEST_F(SimcudaGraph, DestroyingACapturingStreamEndsOrInvalidatesItsCapture) {
  CUstream c = nullptr;
  ASSERT_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(cuEventRecord(fork_, a_));
  ASSERT_CU(cuStreamWaitEvent(c, fork_, 0));
  ASSERT_CU(cuStreamDestroy(c));  // a joined stream: the capture is invalidated
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_INVALIDATED);
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(a_, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

  ASSERT_CU(cuStreamCreate(&c, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(cuStreamBeginCapture(c, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(cuStreamDestroy(c));  // the origin: the capture ends, unsafe calls are allowed again
  float value = 0;
  EXPECT_CU(cuMemcpyDtoH(&value, x_, sizeof value));
}

TEST_F(SimcudaGraph, SynchronizingACapturingStreamInvalidatesTheCapture) {
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(launch("simcuda_test_fill", a_, x_, 1.0f, kCount));
  EXPECT_EQ(cuStreamSynchronize(a_), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  EXPECT_EQ(status(a_), CU_STREAM_CAPTURE_STATUS_INVALIDATED);
  EXPECT_EQ(launch("simcuda_test_fill", a_, x_, 1.0f, kCount), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(a_, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  EXPECT_EQ(graph, nullptr);
  ASSERT_CU(cuStreamSynchronize(a_));
  EXPECT_EQ(read(x_), 0.0f);  // nothing captured ever ran
}

TEST_F(SimcudaGraph, UnsafeCallsAreRefusedUnlessTheThreadIsRelaxed) {
  float value = 0;
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(cuMemcpyDtoH(&value, x_, sizeof value), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(a_, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_EQ(cuEventQuery(fork_), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  EXPECT_EQ(cuStreamEndCapture(a_, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);

  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  ASSERT_CU(cuThreadExchangeStreamCaptureMode(&mode));
  EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
  EXPECT_CU(cuMemcpyDtoH(&value, x_, sizeof value));
  ASSERT_CU(cuThreadExchangeStreamCaptureMode(&mode));
  ASSERT_CU(cuStreamEndCapture(a_, &graph));
  ASSERT_CU(cuGraphDestroy(graph));
}

TEST_F(SimcudaGraph, TheLegacyStreamCannotJoinACaptureImplicitly) {
  CUstream blocking = nullptr;
  ASSERT_CU(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
  EXPECT_EQ(cuStreamBeginCapture(nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL), CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
  ASSERT_CU(cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_RELAXED));
  EXPECT_EQ(launch("simcuda_test_fill", nullptr, x_, 1.0f, kCount), CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
  CUgraph graph = nullptr;
  EXPECT_EQ(cuStreamEndCapture(blocking, &graph), CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
  ASSERT_CU(cuStreamDestroy(blocking));
}

TEST_F(SimcudaGraph, AGraphLaunchKeepsItsBranchesConcurrentOnTheSimulatedClock) {
  constexpr size_t kBytes = 50'000'000;  // 1.010 ms over the link; the kernel takes 1.003 ms
  void* pinned = nullptr;
  CUdeviceptr device = 0;
  ASSERT_CU(cuMemAllocHost(&pinned, kBytes));
  ASSERT_CU(cuMemAlloc(&device, kBytes));
  ASSERT_CU(cuStreamBeginCapture(a_, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(cuEventRecord(fork_, a_));
  ASSERT_CU(cuStreamWaitEvent(b_, fork_, 0));
  ASSERT_CU(cuMemcpyHtoDAsync(device, pinned, kBytes, b_));
  ASSERT_CU(launch("simcuda_test_work", a_, 50e9, 0.0));
  ASSERT_CU(cuEventRecord(join_, b_));
  ASSERT_CU(cuStreamWaitEvent(a_, join_, 0));
  CUgraph graph = nullptr;
  ASSERT_CU(cuStreamEndCapture(a_, &graph));
  CUgraphExec exec = nullptr;
  ASSERT_CU(cuGraphInstantiate(&exec, graph, 0));
  CUevent start = nullptr, end = nullptr;
  ASSERT_CU(cuEventCreate(&start, 0));
  ASSERT_CU(cuEventCreate(&end, 0));
  ASSERT_CU(cuEventRecord(start, a_));
  ASSERT_CU(cuGraphLaunch(exec, a_));
  ASSERT_CU(cuGraphLaunch(exec, a_));
  ASSERT_CU(cuEventRecord(end, a_));
  ASSERT_CU(cuEventSynchronize(end));
  float ms = 0;
  ASSERT_CU(cuEventElapsedTime(&ms, start, end));
  EXPECT_NEAR(ms, 2 * 1.010, 1e-4);  // each launch: the copy and the kernel overlap
  for (CUevent e : {start, end}) ASSERT_CU(cuEventDestroy(e));
  ASSERT_CU(cuGraphExecDestroy(exec));
  ASSERT_CU(cuGraphDestroy(graph));
  ASSERT_CU(cuMemFree(device));
  ASSERT_CU(cuMemFreeHost(pinned));
}

}  // namespace
