// Devices and contexts: attributes, created contexts and the current-context stack.
#include <cstring>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

using SimcudaContext = SimcudaTest;

TEST_F(SimcudaContext, OneDeviceWithAttributes) {
  int count = 0;
  ASSERT_CU(cuDeviceGetCount(&count));
  EXPECT_EQ(count, 1);
  CUdevice dev = -1;
  ASSERT_CU(cuDeviceGet(&dev, 0));
  EXPECT_EQ(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
  char name[64] = {};
  ASSERT_CU(cuDeviceGetName(name, sizeof name, 0));
  EXPECT_NE(std::strstr(name, "simcuda"), nullptr);
  int major = 0, minor = 0;
  ASSERT_CU(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
  ASSERT_CU(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 0));
  EXPECT_EQ(major * 10 + minor, 90);
  size_t total = 0, free = 0, info_total = 0;
  ASSERT_CU(cuDeviceTotalMem(&total, 0));
  ASSERT_CU(cuMemGetInfo(&free, &info_total));
  EXPECT_EQ(total, info_total);
  int value = 0;
  EXPECT_EQ(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaContext, CreatedContextsAndTheCurrentStack) {
  CUcontext created = nullptr;
  ASSERT_CU(cuCtxCreate(&created, nullptr, 0, 0));
  CUcontext current = nullptr;
  ASSERT_CU(cuCtxGetCurrent(&current));
  EXPECT_EQ(current, created);
  CUdeviceptr d = 0;
  ASSERT_CU(cuMemAlloc(&d, 4096));
  ASSERT_CU(launch("simcuda_test_fill", nullptr, d, 1.0f, 1024u));
  ASSERT_CU(cuCtxSynchronize());
  ASSERT_CU(cuMemFree(d));

  CUcontext popped = nullptr;
  ASSERT_CU(cuCtxPopCurrent(&popped));
  EXPECT_EQ(popped, created);
  ASSERT_CU(cuCtxGetCurrent(&current));
  EXPECT_EQ(current, context_);
  ASSERT_CU(cuCtxPushCurrent(created));
  ASSERT_CU(cuCtxDestroy(created));
  ASSERT_CU(cuCtxGetCurrent(&current));
  EXPECT_EQ(current, context_);
  EXPECT_EQ(cuCtxDestroy(created), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(created), CUDA_ERROR_INVALID_CONTEXT);
}

// The stack is 64 deep (kept in trivially destructible thread-local storage, so that exit handlers
// still find their context): one more push fails and changes nothing.
TEST_F(SimcudaContext, CurrentStackIs64Deep) {
  int pushed = 0;  // on top of the fixture's current context (and what earlier tests left)
  while (pushed < 64 && cuCtxPushCurrent(context_) == CUDA_SUCCESS) ++pushed;
  EXPECT_GE(pushed, 56);
  EXPECT_LT(pushed, 64);
  EXPECT_EQ(cuCtxPushCurrent(context_), CUDA_ERROR_OUT_OF_MEMORY);
  CUcontext created = nullptr;
  EXPECT_EQ(cuCtxCreate(&created, nullptr, 0, 0), CUDA_ERROR_OUT_OF_MEMORY);
  for (; pushed > 0; --pushed) ASSERT_CU(cuCtxPopCurrent(nullptr));
  CUcontext current = nullptr;
  ASSERT_CU(cuCtxGetCurrent(&current));
  EXPECT_EQ(current, context_);
}

TEST_F(SimcudaContext, ThePrimaryContextIsShared) {
  CUcontext again = nullptr;
  ASSERT_CU(cuDevicePrimaryCtxRetain(&again, 0));
  EXPECT_EQ(again, context_);
  unsigned flags = 0;
  int active = 0;
  ASSERT_CU(cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 1);
  ASSERT_CU(cuDevicePrimaryCtxRelease(0));
}

}  // namespace
