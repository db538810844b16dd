// load_driver_api asks for the versioned ABI names, and every one of them resolves in a driver
// built from the toolkit's cudaTypedefs.h (simcuda).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/driver_api.h"
#include "tests/swap_space/simcuda_driver.h"

namespace tidepool::testing {
namespace {

std::set<std::string>& asked() {
  static std::set<std::string> names;
  return names;
}

void* record_name(const char* name) {
  asked().insert(name);
  return simcuda_symbol(name);
}

void* none_for_unmap(const char* name) {
  return std::string(name) == "cuMemUnmap" ? nullptr : simcuda_symbol(name);
}

TEST(DriverApiTest, FillsEveryFunctionFromItsVersionedName) {
  asked().clear();
  const runtime::DriverApi api = runtime::load_driver_api(&record_name);
  EXPECT_TRUE(api.complete());
  EXPECT_EQ(asked().size(), 31u);
  for (const char* name : {"cuMemGetInfo_v2", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemAllocHost_v2", "cuMemcpyHtoD_v2",
                           "cuMemcpyDtoH_v2", "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2", "cuStreamDestroy_v2",
                           "cuEventDestroy_v2", "cuEventElapsedTime_v2", "cuCtxGetDevice", "cuCtxSynchronize",
                           "cuStreamWaitEvent", "cuEventRecord", "cuMemCreate", "cuMemSetAccess"})
    EXPECT_TRUE(asked().contains(name)) << name;
  EXPECT_FALSE(asked().contains("cuMemAlloc")) << "the unversioned cuMemAlloc is the 32-bit ABI";
  EXPECT_FALSE(asked().contains("cuCtxGetDevice_v2")) << "CUDA 13's cuCtxGetDevice_v2 takes a context";
}

TEST(DriverApiTest, IncompleteWhenAFunctionIsMissing) {
  const runtime::DriverApi api = runtime::load_driver_api(&none_for_unmap);
  EXPECT_EQ(api.mem_unmap, nullptr);
  EXPECT_NE(api.mem_map, nullptr);
  EXPECT_FALSE(api.complete());
}

}  // namespace
}  // namespace tidepool::testing
