// Modules, libraries and launches: name resolution against the twins, parameter info, the
// parameter array and the packed `extra` buffer, cuLaunchKernelEx, struct parameters.
#include <cstring>
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

class SimcudaModule : public SimcudaTest {
 protected:
  void SetUp() override {
    SimcudaTest::SetUp();
    ASSERT_CU(cuMemAlloc(&x_, kCount * sizeof(float)));
    ASSERT_CU(cuMemAlloc(&y_, kCount * sizeof(float)));
    ASSERT_CU(cuMemsetD32(y_, 0, kCount));
  }
  void TearDown() override {
    EXPECT_CU(cuMemFree(x_));
    EXPECT_CU(cuMemFree(y_));
    SimcudaTest::TearDown();
  }
  std::vector<float> read(CUdeviceptr p) {
    std::vector<float> values(kCount);
    EXPECT_CU(cuMemcpyDtoH(values.data(), p, kCount * sizeof(float)));
    return values;
  }

  static constexpr unsigned kCount = 1000;
  CUdeviceptr x_ = 0, y_ = 0;
};

TEST_F(SimcudaModule, FunctionsResolveByName) {
  CUfunction f = nullptr;
  EXPECT_EQ(cuModuleGetFunction(&f, module_, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
  ASSERT_CU(cuModuleGetFunction(&f, module_, "simcuda_test_axpy"));
  const char* name = nullptr;
  ASSERT_CU(cuFuncGetName(&name, f));
  EXPECT_STREQ(name, "simcuda_test_axpy");
  CUmodule owner = nullptr;
  ASSERT_CU(cuFuncGetModule(&owner, f));
  EXPECT_EQ(owner, module_);
}

TEST_F(SimcudaModule, ModulesLoadFromFilesAndFatBinaries) {
  CUmodule m = nullptr;
  EXPECT_EQ(cuModuleLoad(&m, "/nonexistent/kernels.cubin"), CUDA_ERROR_FILE_NOT_FOUND);
  ASSERT_CU(cuModuleLoad(&m, TIDEPOOL_SOURCE_DIR "/CMakeLists.txt"));
  ASSERT_CU(cuModuleUnload(m));
  EXPECT_EQ(cuModuleUnload(m), CUDA_ERROR_INVALID_HANDLE);
  const char image[] = "fatbin";
  ASSERT_CU(cuModuleLoadFatBinary(&m, image));
  ASSERT_CU(cuModuleUnload(m));
  ASSERT_CU(cuModuleLoadDataEx(&m, image, 0, nullptr, nullptr));
  ASSERT_CU(cuModuleUnload(m));
}

TEST_F(SimcudaModule, ParameterInfoIsTheTwinsLayout) {
  const CUfunction axpy = function("simcuda_test_axpy");
  const size_t expected[][2] = {{0, 4}, {8, 8}, {16, 8}, {24, 4}};
  for (size_t i = 0; i < 4; ++i) {
    size_t offset = 0, size = 0;
    ASSERT_CU(cuFuncGetParamInfo(axpy, i, &offset, &size));
    EXPECT_EQ(offset, expected[i][0]);
    EXPECT_EQ(size, expected[i][1]);
  }
  size_t offset = 0, size = 0;
  EXPECT_EQ(cuFuncGetParamInfo(axpy, 4, &offset, &size), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuFuncGetParamInfo(reinterpret_cast<CUfunction>(&offset), 0, &offset, &size), CUDA_ERROR_INVALID_HANDLE);
}

TEST_F(SimcudaModule, LaunchWithParameterArray) {
  ASSERT_CU(launch("simcuda_test_fill", nullptr, x_, 1.5f, kCount));
  ASSERT_CU(launch("simcuda_test_axpy", nullptr, 2.0f, x_, y_, kCount));
  EXPECT_EQ(read(y_), std::vector<float>(kCount, 3.0f));
}

TEST_F(SimcudaModule, LaunchWithPackedExtraBuffer) {
  ASSERT_CU(launch("simcuda_test_fill", nullptr, x_, 2.0f, kCount));
  unsigned char packed[32] = {};
  const float a = 4.0f;
  const unsigned n = kCount;
  std::memcpy(packed + 0, &a, 4);
  std::memcpy(packed + 8, &x_, 8);
  std::memcpy(packed + 16, &y_, 8);
  std::memcpy(packed + 24, &n, 4);
  size_t size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  const CUfunction axpy = function("simcuda_test_axpy");
  ASSERT_CU(cuLaunchKernel(axpy, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
  EXPECT_EQ(read(y_), std::vector<float>(kCount, 8.0f));

  size = 20;  // too small for the parameters
  EXPECT_EQ(cuLaunchKernel(axpy, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuLaunchKernel(axpy, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuLaunchKernel(axpy, 0, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuLaunchKernel(axpy, 1, 1, 1, 2048, 1, 1, 0, nullptr, nullptr, extra), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaModule, LaunchKernelExAndStructParameters) {
  ASSERT_CU(launch("simcuda_test_fill", nullptr, x_, 1.0f, kCount));
  struct {
    CUdeviceptr from, to;
  } pair{x_, y_};
  unsigned n = kCount;
  void* params[] = {&pair, &n};
  CUlaunchConfig config{};
  config.gridDimX = config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = 128;
  config.blockDimY = config.blockDimZ = 1;
  ASSERT_CU(cuLaunchKernelEx(&config, function("simcuda_test_pair"), params, nullptr));
  ASSERT_CU(cuLaunchKernelEx(&config, function("simcuda_test_pair"), params, nullptr));
  EXPECT_EQ(read(y_), std::vector<float>(kCount, 2.0f));
}

TEST_F(SimcudaModule, ParametersAreCopiedAtTheLaunch) {
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(launch("simcuda_test_sleep", s, 30000u));
  float value = 6.0f;
  unsigned n = kCount;
  void* params[] = {&x_, &value, &n};
  ASSERT_CU(cuLaunchKernel(function("simcuda_test_fill"), 1, 1, 1, 1, 1, 1, 0, s, params, nullptr));
  value = -1.0f;
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(read(x_), std::vector<float>(kCount, 6.0f));
  ASSERT_CU(cuStreamDestroy(s));
}

TEST_F(SimcudaModule, LibrariesAndKernels) {
  CUlibrary library = nullptr;
  const char image[] = "library image";
  ASSERT_CU(cuLibraryLoadData(&library, image, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel kernel = nullptr;
  EXPECT_EQ(cuLibraryGetKernel(&kernel, library, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
  ASSERT_CU(cuLibraryGetKernel(&kernel, library, "simcuda_test_fill"));
  const char* name = nullptr;
  ASSERT_CU(cuKernelGetName(&name, kernel));
  EXPECT_STREQ(name, "simcuda_test_fill");
  size_t offset = 0, size = 0;
  ASSERT_CU(cuKernelGetParamInfo(kernel, 1, &offset, &size));
  EXPECT_EQ(offset, 8u);
  CUfunction f = nullptr;
  ASSERT_CU(cuKernelGetFunction(&f, kernel));
  float value = 9.0f;
  unsigned n = kCount;
  void* params[] = {&x_, &value, &n};
  ASSERT_CU(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(read(x_), std::vector<float>(kCount, 9.0f));
  value = 10.0f;  // a CUkernel may be launched as a CUfunction
  ASSERT_CU(cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(read(x_), std::vector<float>(kCount, 10.0f));
  ASSERT_CU(cuLibraryUnload(library));
}

}  // namespace
