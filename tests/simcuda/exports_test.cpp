// The exported driver API: versioned symbols, cuGetProcAddress (versions, per-thread flag,
// unknown names), unimplemented functions, error names.
#include <dlfcn.h>

#include <cstdio>
#include <memory>
#include <string>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

void* symbol(const char* name) { return dlsym(RTLD_DEFAULT, name); }

void* proc(const char* name, int version, cuuint64_t flags, CUdriverProcAddressQueryResult* status = nullptr) {
  void* p = nullptr;
  CUdriverProcAddressQueryResult s{};
  EXPECT_CU(cuGetProcAddress_v2(name, &p, version, flags, &s));
  EXPECT_EQ(s, CU_GET_PROC_ADDRESS_SUCCESS);
  if (status != nullptr) *status = s;
  return p;
}

TEST(SimcudaExports, DriverVersionIs13000) {
  int version = 0;
  ASSERT_CU(cuDriverGetVersion(&version));
  EXPECT_EQ(version, 13000);
}

TEST(SimcudaExports, VersionedNamesAreExported) {
  for (const char* name : {"cuCtxCreate_v4", "cuStreamDestroy_v2", "cuEventElapsedTime_v2", "cuMemsetD8_v2",
                           "cuMemAlloc", "cuMemAlloc_v2", "cuMemcpyHtoD_v2_ptds", "cuLaunchKernel_ptsz",
                           "cuProfilerStart", "cuGetProcAddress_v2"})
    EXPECT_NE(symbol(name), nullptr) << name;
  EXPECT_EQ(symbol("cuNoSuchFunction"), nullptr);
}

TEST(SimcudaExports, EveryFunctionOfTheToolkitStubIsExported) {
  std::unique_ptr<FILE, int (*)(FILE*)> nm(
      popen("nm -D --defined-only /usr/local/cuda/lib64/stubs/libcuda.so 2>/dev/null", "r"), pclose);
  if (nm == nullptr) GTEST_SKIP() << "nm is not available";
  char line[512];
  int checked = 0;
  while (fgets(line, sizeof line, nm.get()) != nullptr) {
    char name[256];
    if (std::sscanf(line, "%*s %*s %255s", name) != 1 || std::string(name).rfind("cu", 0) != 0) continue;
    EXPECT_NE(symbol(name), nullptr) << name;
    ++checked;
  }
  if (checked == 0) GTEST_SKIP() << "the toolkit has no stub libcuda.so to compare with";
}

TEST(SimcudaExports, GetProcAddressHonoursTheRequestedVersion) {
  EXPECT_EQ(proc("cuMemAlloc", 13000, 0), symbol("cuMemAlloc_v2"));
  EXPECT_EQ(proc("cuMemAlloc", 3000, 0), symbol("cuMemAlloc"));
  EXPECT_EQ(proc("cuCtxCreate", 13000, 0), symbol("cuCtxCreate_v4"));
  EXPECT_EQ(proc("cuCtxCreate", 11040, 0), symbol("cuCtxCreate_v3"));
  EXPECT_EQ(proc("cuStreamDestroy", 12000, 0), symbol("cuStreamDestroy_v2"));
  EXPECT_EQ(proc("cuStreamDestroy", 3020, 0), symbol("cuStreamDestroy"));
  EXPECT_EQ(proc("cuEventElapsedTime", 12080, 0), symbol("cuEventElapsedTime_v2"));
  EXPECT_EQ(proc("cuEventElapsedTime", 12000, 0), symbol("cuEventElapsedTime"));
  EXPECT_EQ(proc("cuGetProcAddress", 13000, 0), symbol("cuGetProcAddress_v2"));
}

TEST(SimcudaExports, GetProcAddressHonoursThePerThreadFlag) {
  constexpr auto kPerThread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  constexpr auto kLegacy = CU_GET_PROC_ADDRESS_LEGACY_STREAM;
  EXPECT_EQ(proc("cuMemcpyHtoD", 13000, kPerThread), symbol("cuMemcpyHtoD_v2_ptds"));
  EXPECT_EQ(proc("cuMemcpyHtoD", 13000, kLegacy), symbol("cuMemcpyHtoD_v2"));
  EXPECT_EQ(proc("cuLaunchKernel", 13000, kPerThread), symbol("cuLaunchKernel_ptsz"));
  EXPECT_EQ(proc("cuLaunchKernel", 13000, 0), symbol("cuLaunchKernel"));
  EXPECT_EQ(proc("cuMemAllocAsync", 13000, kPerThread), symbol("cuMemAllocAsync_ptsz"));
  EXPECT_EQ(proc("cuStreamGetCaptureInfo", 11030, kPerThread), symbol("cuStreamGetCaptureInfo_v2_ptsz"));
  EXPECT_EQ(proc("cuMemAlloc", 13000, kPerThread), symbol("cuMemAlloc_v2"));  // no per-thread form
}

TEST(SimcudaExports, GetProcAddressAnswersUnknownNamesAsTheDriver) {
  void* p = reinterpret_cast<void*>(1);
  CUdriverProcAddressQueryResult status{};
  EXPECT_EQ(cuGetProcAddress_v2("cuNoSuchFunction", &p, 13000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(cuGetProcAddress_v2("cuMemAllocAsync", &p, 11000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  EXPECT_EQ(cuGetProcAddress_v2(nullptr, &p, 13000, 0, &status), CUDA_ERROR_INVALID_VALUE);
}

TEST(SimcudaExports, UnimplementedFunctionsReturnNotSupported) {
  ASSERT_CU(cuInit(0));
  using GraphCreate = CUresult (*)(CUgraph*, unsigned int);
  auto graph_create = reinterpret_cast<GraphCreate>(proc("cuGraphCreate", 13000, 0));
  ASSERT_NE(graph_create, nullptr);
  CUgraph graph = nullptr;
  EXPECT_EQ(graph_create(&graph, 0), CUDA_ERROR_NOT_SUPPORTED);
}

TEST(SimcudaErrors, NamesAndDescriptionsComeFromCudaH) {
  const char* text = nullptr;
  ASSERT_CU(cuGetErrorName(CUDA_ERROR_OUT_OF_MEMORY, &text));
  EXPECT_STREQ(text, "CUDA_ERROR_OUT_OF_MEMORY");
  ASSERT_CU(cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &text));
  EXPECT_NE(std::string(text).find("parameters"), std::string::npos);
  EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(123456), &text), CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
