// Virtual memory management: real mappings, the driver's rules, remapping other physical memory
// at the same address, and faults on unmapped or inaccessible pages (death tests).
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

constexpr size_t kGranule = 2 << 20;

class SimcudaVmm : public SimcudaTest {
 protected:
  void SetUp() override {
    SimcudaTest::SetUp();
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = 0;
    access_.location = prop_.location;
    access_.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ASSERT_CU(cuMemAddressReserve(&base_, 4 * kGranule, 0, 0, 0));
  }
  void TearDown() override {
    EXPECT_CU(cuMemAddressFree(base_, 4 * kGranule));
    SimcudaTest::TearDown();
  }
  CUmemGenericAllocationHandle create(size_t size) {
    CUmemGenericAllocationHandle h = 0;
    EXPECT_CU(cuMemCreate(&h, size, &prop_, 0));
    return h;
  }
  float read(CUdeviceptr p) {
    float value = -1;
    EXPECT_CU(cuMemcpyDtoH(&value, p, sizeof value));
    return value;
  }

  CUmemAllocationProp prop_{};
  CUmemAccessDesc access_{};
  CUdeviceptr base_ = 0;
};

TEST_F(SimcudaVmm, GranularityIsTwoMebibytes) {
  size_t granularity = 0;
  ASSERT_CU(cuMemGetAllocationGranularity(&granularity, &prop_, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  EXPECT_EQ(granularity, kGranule);
  int supported = 0;
  ASSERT_CU(cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
  EXPECT_EQ(supported, 1);
  EXPECT_EQ(base_ % kGranule, 0u);
}

TEST_F(SimcudaVmm, MappedMemoryWorksAndOtherMemoryCanTakeItsAddress) {
  size_t free_before = 0, total = 0;
  ASSERT_CU(cuMemGetInfo(&free_before, &total));
  const auto first = create(kGranule);
  const auto second = create(kGranule);
  size_t free_now = 0;
  ASSERT_CU(cuMemGetInfo(&free_now, &total));
  EXPECT_EQ(free_now, free_before - 2 * kGranule);

  ASSERT_CU(cuMemMap(base_, kGranule, 0, first, 0));
  ASSERT_CU(cuMemSetAccess(base_, kGranule, &access_, 1));
  const unsigned floats = kGranule / sizeof(float);
  ASSERT_CU(launch("simcuda_test_fill", nullptr, base_, 1.0f, floats));
  EXPECT_EQ(read(base_ + kGranule - sizeof(float)), 1.0f);
  CUdeviceptr range_base = 0;
  size_t range_size = 0;
  ASSERT_CU(cuMemGetAddressRange(&range_base, &range_size, base_ + 100));
  EXPECT_EQ(range_base, base_);
  EXPECT_EQ(range_size, kGranule);
  ASSERT_CU(cuMemUnmap(base_, kGranule));

  ASSERT_CU(cuMemMap(base_, kGranule, 0, second, 0));
  ASSERT_CU(cuMemSetAccess(base_, kGranule, &access_, 1));
  ASSERT_CU(launch("simcuda_test_fill", nullptr, base_, 2.0f, floats));
  EXPECT_EQ(read(base_), 2.0f);
  ASSERT_CU(cuMemUnmap(base_, kGranule));

  ASSERT_CU(cuMemMap(base_ + kGranule, kGranule, 0, first, 0));  // the first one kept its contents
  ASSERT_CU(cuMemSetAccess(base_ + kGranule, kGranule, &access_, 1));
  EXPECT_EQ(read(base_ + kGranule), 1.0f);

  CUmemGenericAllocationHandle retained = 0;
  ASSERT_CU(cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(base_ + kGranule + 64)));
  EXPECT_EQ(retained, first);
  ASSERT_CU(cuMemRelease(retained));
  ASSERT_CU(cuMemUnmap(base_ + kGranule, kGranule));
  ASSERT_CU(cuMemRelease(first));
  ASSERT_CU(cuMemRelease(second));
  EXPECT_EQ(cuMemRelease(second), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuMemGetInfo(&free_now, &total));
  EXPECT_EQ(free_now, free_before);
}

TEST_F(SimcudaVmm, TheDriversRulesAreEnforced) {
  CUmemGenericAllocationHandle h = 0;
  EXPECT_EQ(cuMemCreate(&h, kGranule / 2, &prop_, 0), CUDA_ERROR_INVALID_VALUE);
  size_t free = 0, total = 0;
  ASSERT_CU(cuMemGetInfo(&free, &total));
  EXPECT_EQ(cuMemCreate(&h, (free / kGranule + 1) * kGranule, &prop_, 0), CUDA_ERROR_OUT_OF_MEMORY);
  CUdeviceptr p = 0;
  EXPECT_EQ(cuMemAddressReserve(&p, kGranule + 4096, 0, 0, 0), CUDA_ERROR_INVALID_VALUE);

  const auto big = create(2 * kGranule);
  const auto small = create(kGranule);
  EXPECT_EQ(cuMemMap(base_, 2 * kGranule, kGranule, big, 0), CUDA_ERROR_INVALID_VALUE);    // offset must be 0
  EXPECT_EQ(cuMemMap(base_ + 4096, kGranule, 0, small, 0), CUDA_ERROR_INVALID_VALUE);      // unaligned address
  EXPECT_EQ(cuMemMap(base_, 4 * kGranule, 0, small, 0), CUDA_ERROR_INVALID_VALUE);         // larger than the memory
  EXPECT_EQ(cuMemMap(base_ + 3 * kGranule, 2 * kGranule, 0, big, 0), CUDA_ERROR_INVALID_VALUE);  // past the reservation
  EXPECT_EQ(cuMemSetAccess(base_, kGranule, &access_, 1), CUDA_ERROR_INVALID_VALUE);       // nothing mapped
  ASSERT_CU(cuMemMap(base_, 2 * kGranule, 0, big, 0));
  EXPECT_EQ(cuMemMap(base_ + kGranule, kGranule, 0, small, 0), CUDA_ERROR_INVALID_VALUE);  // over a mapping
  EXPECT_EQ(cuMemUnmap(base_, kGranule), CUDA_ERROR_INVALID_VALUE);                        // partial unmap
  EXPECT_EQ(cuMemAddressFree(base_, 4 * kGranule), CUDA_ERROR_INVALID_VALUE);              // still mapped
  ASSERT_CU(cuMemMap(base_ + 2 * kGranule, kGranule, 0, small, 0));
  ASSERT_CU(cuMemUnmap(base_, 3 * kGranule));  // whole mappings, several at once
  ASSERT_CU(cuMemRelease(big));
  ASSERT_CU(cuMemRelease(small));
}

TEST_F(SimcudaVmm, ReleaseBeforeUnmapKeepsTheMemoryUntilTheUnmap) {
  const auto h = create(kGranule);
  ASSERT_CU(cuMemMap(base_, kGranule, 0, h, 0));
  ASSERT_CU(cuMemSetAccess(base_, kGranule, &access_, 1));
  ASSERT_CU(cuMemRelease(h));
  ASSERT_CU(cuMemsetD32(base_, 0x3f800000u, 16));
  EXPECT_EQ(read(base_ + 4), 1.0f);
  ASSERT_CU(cuMemUnmap(base_, kGranule));
}

TEST_F(SimcudaVmm, AFreshMappingHasNoAccess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto h = create(kGranule);
  ASSERT_CU(cuMemMap(base_, kGranule, 0, h, 0));
  EXPECT_DEATH(
      {
        (void)launch("simcuda_test_touch", nullptr, base_, 16ull);
        (void)cuCtxSynchronize();
      },
      "simcuda: illegal address 0x[0-9a-f]+ in kernel simcuda_test_touch");
  ASSERT_CU(cuMemUnmap(base_, kGranule));
  ASSERT_CU(cuMemRelease(h));
}

TEST_F(SimcudaVmm, TouchingUnmappedPagesFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const auto h = create(kGranule);
  ASSERT_CU(cuMemMap(base_, kGranule, 0, h, 0));
  ASSERT_CU(cuMemSetAccess(base_, kGranule, &access_, 1));
  ASSERT_CU(launch("simcuda_test_touch", nullptr, base_, static_cast<unsigned long long>(kGranule)));
  ASSERT_CU(cuMemUnmap(base_, kGranule));
  EXPECT_DEATH(
      {
        (void)launch("simcuda_test_touch", nullptr, base_ + 4096, 16ull);
        (void)cuCtxSynchronize();
      },
      "simcuda: illegal address 0x[0-9a-f]*1000 in kernel simcuda_test_touch");
  ASSERT_CU(cuMemRelease(h));
}

}  // namespace
