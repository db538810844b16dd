// Shared helpers of simcuda's tests: a fixture with a current context and a loaded module, and
// a launcher for the test twins of tools/simcuda/kernels/testing.cpp.
#pragma once

#include <cuda.h>
#include <gtest/gtest.h>

#define ASSERT_CU(call) ASSERT_EQ((call), CUDA_SUCCESS) << #call
#define EXPECT_CU(call) EXPECT_EQ((call), CUDA_SUCCESS) << #call

class SimcudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_CU(cuInit(0));
    ASSERT_CU(cuDevicePrimaryCtxRetain(&context_, 0));
    ASSERT_CU(cuCtxSetCurrent(context_));
    // simcuda accepts any module image as it is.
    static const char kImage[] = "not a real fatbin";
    ASSERT_CU(cuModuleLoadData(&module_, kImage));
  }

  void TearDown() override {
    EXPECT_CU(cuCtxSynchronize());
    EXPECT_CU(cuModuleUnload(module_));
    EXPECT_CU(cuDevicePrimaryCtxRelease(0));
  }

  CUfunction function(const char* name) {
    CUfunction f = nullptr;
    EXPECT_CU(cuModuleGetFunction(&f, module_, name));
    return f;
  }

  // Launches a test twin with one block of one thread.
  template <class... Args>
  CUresult launch(const char* name, CUstream stream, Args... args) {
    void* params[] = {static_cast<void*>(&args)..., nullptr};
    return cuLaunchKernel(function(name), 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
  }

  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
};

// Two zeroed device buffers x_ and y_ of kCount floats, and reading their last element.
template <unsigned Count>
class SimcudaTwoBuffersTest : public SimcudaTest {
 protected:
  static constexpr unsigned kCount = Count;

  void SetUp() override {
    SimcudaTest::SetUp();
    ASSERT_CU(cuMemAlloc(&x_, kCount * sizeof(float)));
    ASSERT_CU(cuMemAlloc(&y_, kCount * sizeof(float)));
    ASSERT_CU(cuMemsetD32(x_, 0, kCount));
    ASSERT_CU(cuMemsetD32(y_, 0, kCount));
    ASSERT_CU(cuCtxSynchronize());  // the sets run on the legacy stream, which non-blocking streams ignore
  }
  void TearDown() override {
    EXPECT_CU(cuMemFree(x_));
    EXPECT_CU(cuMemFree(y_));
    SimcudaTest::TearDown();
  }
  float read(CUdeviceptr p) {
    float value = -1;
    EXPECT_CU(cuMemcpyDtoH(&value, p + (kCount - 1) * sizeof(float), sizeof value));
    return value;
  }

  CUdeviceptr x_ = 0, y_ = 0;
};
