// Managed memory: host-accessible, reachable by kernels and copies, freed by cuMemFree, with
// pointer attributes saying so; prefetches are stream-ordered and advice is checked.
#include "tests/simcuda/simcuda_test_util.h"

namespace {

using SimcudaManaged = SimcudaTest;

constexpr unsigned kCount = 1024;

TEST_F(SimcudaManaged, KernelsAndTheHostShareManagedMemory) {
  CUdeviceptr p = 0;
  ASSERT_CU(cuMemAllocManaged(&p, kCount * sizeof(float), CU_MEM_ATTACH_GLOBAL));
  auto* host = reinterpret_cast<float*>(p);
  host[kCount - 1] = 5.0f;
  ASSERT_CU(launch("simcuda_test_fill", nullptr, p, 2.0f, kCount));
  ASSERT_CU(cuCtxSynchronize());
  EXPECT_EQ(host[kCount - 1], 2.0f);
  CUdeviceptr device = 0;
  ASSERT_CU(cuMemAlloc(&device, kCount * sizeof(float)));
  ASSERT_CU(cuMemcpy(device, p, kCount * sizeof(float)));
  float value = 0;
  ASSERT_CU(cuMemcpyDtoH(&value, device + (kCount - 1) * sizeof(float), sizeof value));
  EXPECT_EQ(value, 2.0f);
  EXPECT_EQ(cuMemcpy(device, p + sizeof(float), kCount * sizeof(float)), CUDA_ERROR_INVALID_VALUE);  // past the end
  ASSERT_CU(cuMemFree(device));
  ASSERT_CU(cuMemFree(p));
  EXPECT_EQ(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaManaged, PointerAttributesAndAddressRange) {
  CUdeviceptr p = 0;
  ASSERT_CU(cuMemAllocManaged(&p, 3000, CU_MEM_ATTACH_HOST));
  unsigned managed = 0, type = 0;
  ASSERT_CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, p + 10));
  ASSERT_CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p + 10));
  EXPECT_EQ(managed, 1u);
  EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_CU(cuMemGetAddressRange(&base, &size, p + 100));
  EXPECT_EQ(base, p);
  EXPECT_EQ(size, 3000u);
  CUdeviceptr device = 0;
  ASSERT_CU(cuMemAlloc(&device, 512));
  ASSERT_CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, device));
  EXPECT_EQ(managed, 0u);
  ASSERT_CU(cuMemFree(device));
  ASSERT_CU(cuMemFree(p));
}

TEST_F(SimcudaManaged, BadArgumentsAreRefused) {
  CUdeviceptr p = 0;
  EXPECT_EQ(cuMemAllocManaged(&p, 0, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAllocManaged(&p, 64, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAllocManaged(nullptr, 64, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(SimcudaManaged, PrefetchIsStreamOrderedAndAdviceIsChecked) {
  CUdeviceptr p = 0;
  ASSERT_CU(cuMemAllocManaged(&p, 4096, CU_MEM_ATTACH_GLOBAL));
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUmemLocation device{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemLocation host{CU_MEM_LOCATION_TYPE_HOST, 0};
  ASSERT_CU(cuMemPrefetchAsync(p, 4096, device, 0, s));
  ASSERT_CU(cuMemPrefetchAsync(p, 4096, host, 0, s));
  EXPECT_EQ(cuMemPrefetchAsync(p, 4097, device, 0, s), CUDA_ERROR_INVALID_VALUE);
  CUdeviceptr plain = 0;
  ASSERT_CU(cuMemAlloc(&plain, 4096));
  EXPECT_EQ(cuMemPrefetchAsync(plain, 4096, device, 0, s), CUDA_ERROR_INVALID_VALUE);  // not managed
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_CU(cuMemAdvise(p, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, device));
  EXPECT_CU(cuMemAdvise(p, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
  EXPECT_EQ(cuMemAdvise(p, 4096, static_cast<CUmem_advise>(7), device), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAdvise(plain, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, device), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuStreamDestroy(s));
  ASSERT_CU(cuMemFree(plain));
  ASSERT_CU(cuMemFree(p));
}

}  // namespace
