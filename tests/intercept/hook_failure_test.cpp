// A hook that throws never lets the exception into the program: run_hook returns the driver's
// answer to the program's call, made once, whether the hook failed before or after making it.
#include "intercept/hook_failure.h"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

namespace tidepool::intercept {
namespace {

using AllocFn = CUresult (*)(CUdeviceptr*, size_t);

int g_driver_calls = 0;
CUresult fake_driver(CUdeviceptr* dptr, size_t bytes) {
  ++g_driver_calls;
  *dptr = 0x1000;
  return bytes > 100 ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

const Real<AllocFn> kReal{&fake_driver, StreamMode::legacy};
const auto kSymbol = [] { return std::string_view("cuMemAlloc_v2"); };

CUresult run(CUresult (*hook)(const Real<AllocFn>&, CUdeviceptr*, size_t), size_t bytes) {
  g_driver_calls = 0;
  CUdeviceptr d = 0;
  return run_hook(kSymbol, kReal, hook, &d, bytes);
}

TEST(HookFailure, AHookThatWorksReturnsItsOwnAnswer) {
  EXPECT_EQ(run([](const Real<AllocFn>& real, CUdeviceptr* d, size_t b) { return real(d, b); }, 8), CUDA_SUCCESS);
  EXPECT_EQ(g_driver_calls, 1);
  EXPECT_EQ(run([](const Real<AllocFn>&, CUdeviceptr*, size_t) { return CUDA_ERROR_INVALID_VALUE; }, 8),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(g_driver_calls, 0);
}

TEST(HookFailure, FailureBeforeTheCallMakesIt) {
  EXPECT_EQ(run([](const Real<AllocFn>&, CUdeviceptr*, size_t) -> CUresult { throw std::bad_alloc(); }, 8),
            CUDA_SUCCESS);
  EXPECT_EQ(g_driver_calls, 1);
  EXPECT_EQ(run([](const Real<AllocFn>&, CUdeviceptr*, size_t) -> CUresult { throw 7; }, 200),
            CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(g_driver_calls, 1);
}

TEST(HookFailure, FailureAfterTheCallReturnsItsAnswerWithoutCallingAgain) {
  const auto after = [](const Real<AllocFn>& real, CUdeviceptr* d, size_t b) -> CUresult {
    real(d, b);
    throw std::runtime_error("bookkeeping failed");
  };
  EXPECT_EQ(run(after, 8), CUDA_SUCCESS);
  EXPECT_EQ(g_driver_calls, 1);
  EXPECT_EQ(run(after, 200), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(g_driver_calls, 1);
}

}  // namespace
}  // namespace tidepool::intercept
