// Device and pinned host memory: allocation, copies, sets, wild and double frees, out of memory,
// address ranges and pointer attributes.
#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

using SimcudaMemory = SimcudaTest;

TEST_F(SimcudaMemory, CopiesRoundTrip) {
  std::vector<uint32_t> host(1 << 18), back(host.size());
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
  const size_t bytes = host.size() * sizeof(uint32_t);
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(cuMemAlloc(&a, bytes));
  ASSERT_CU(cuMemAlloc(&b, bytes));
  ASSERT_CU(cuMemcpyHtoD(a, host.data(), bytes));
  ASSERT_CU(cuMemcpyDtoD(b, a, bytes));
  ASSERT_CU(cuMemcpyDtoH(back.data(), b, bytes));
  EXPECT_EQ(host, back);
  ASSERT_CU(cuMemFree(a));
  ASSERT_CU(cuMemFree(b));
}

TEST_F(SimcudaMemory, SetsFillEveryWidth) {
  CUdeviceptr d = 0;
  ASSERT_CU(cuMemAlloc(&d, 4096));
  std::vector<unsigned char> bytes(4096);
  ASSERT_CU(cuMemsetD8(d, 0xab, 4096));
  ASSERT_CU(cuMemcpyDtoH(bytes.data(), d, 4096));
  EXPECT_EQ(bytes, std::vector<unsigned char>(4096, 0xab));
  ASSERT_CU(cuMemsetD32(d, 0x01020304u, 1024));
  uint32_t word = 0;
  ASSERT_CU(cuMemcpyDtoH(&word, d + 4092, 4));
  EXPECT_EQ(word, 0x01020304u);
  ASSERT_CU(cuMemsetD16Async(d, 0x0506, 2048, nullptr));
  uint16_t half = 0;
  ASSERT_CU(cuMemcpyDtoH(&half, d + 2, 2));
  EXPECT_EQ(half, 0x0506);
  // 2D: 4 rows of 16 bytes, 64 apart; the gaps keep their value.
  ASSERT_CU(cuMemsetD8(d, 0, 4096));
  ASSERT_CU(cuMemsetD2D8(d, 64, 7, 16, 4));
  ASSERT_CU(cuMemcpyDtoH(bytes.data(), d, 320));
  EXPECT_EQ(bytes[0], 7);
  EXPECT_EQ(bytes[15], 7);
  EXPECT_EQ(bytes[16], 0);
  EXPECT_EQ(bytes[3 * 64 + 15], 7);
  EXPECT_EQ(bytes[4 * 64], 0);
  EXPECT_EQ(cuMemsetD32(d + 1, 0, 4), CUDA_ERROR_INVALID_VALUE);  // misaligned
  ASSERT_CU(cuMemFree(d));
}

TEST_F(SimcudaMemory, WildPointersAndDoubleFreesAreInvalidValues) {
  CUdeviceptr d = 0;
  ASSERT_CU(cuMemAlloc(&d, 1000));
  EXPECT_EQ(cuMemFree(d + 8), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuMemFree(d));
  EXPECT_EQ(cuMemFree(d), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemFree(0x1234), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemAlloc(&d, 0), CUDA_ERROR_INVALID_VALUE);
  int host = 0;
  EXPECT_EQ(cuMemcpyHtoD(d, &host, sizeof host), CUDA_ERROR_INVALID_VALUE);  // freed memory
}

TEST_F(SimcudaMemory, OutOfMemoryChangesNothing) {
  size_t free_before = 0, total = 0;
  ASSERT_CU(cuMemGetInfo(&free_before, &total));
  EXPECT_GT(total, 100u << 20);
  CUdeviceptr kept = 0;
  ASSERT_CU(cuMemAlloc(&kept, 100 << 20));
  ASSERT_CU(cuMemsetD8(kept, 0x5a, 100 << 20));
  size_t free_mid = 0;
  ASSERT_CU(cuMemGetInfo(&free_mid, &total));
  EXPECT_EQ(free_mid, free_before - (100 << 20));

  CUdeviceptr d = 0xdead;
  EXPECT_EQ(cuMemAlloc(&d, free_mid + 1), CUDA_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(d, 0xdeadu);
  EXPECT_EQ(cuMemAllocAsync(&d, free_mid + 1, nullptr), CUDA_ERROR_OUT_OF_MEMORY);
  size_t free_after = 0;
  ASSERT_CU(cuMemGetInfo(&free_after, &total));
  EXPECT_EQ(free_after, free_mid);
  unsigned char probe = 0;
  ASSERT_CU(cuMemcpyDtoH(&probe, kept + (50 << 20), 1));
  EXPECT_EQ(probe, 0x5a);
  ASSERT_CU(cuMemFree(kept));
  ASSERT_CU(cuMemGetInfo(&free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

TEST_F(SimcudaMemory, AddressRangesAndPointerAttributes) {
  CUdeviceptr d = 0;
  ASSERT_CU(cuMemAlloc(&d, 3000));
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_CU(cuMemGetAddressRange(&base, &size, d + 1234));
  EXPECT_EQ(base, d);
  EXPECT_EQ(size, 3000u);
  EXPECT_EQ(cuMemGetAddressRange(&base, &size, d + 3000), CUDA_ERROR_NOT_FOUND);

  unsigned type = 0;
  ASSERT_CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 10));
  EXPECT_EQ(type, CU_MEMORYTYPE_DEVICE);
  CUdeviceptr start = 0;
  ASSERT_CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 10));
  EXPECT_EQ(start, d);
  int host_value = 0;
  EXPECT_EQ(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(&host_value)),
            CUDA_ERROR_INVALID_VALUE);

  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  unsigned memory_type = 99;
  size_t range_size = 99;
  void* values[] = {&memory_type, &range_size};
  ASSERT_CU(cuPointerGetAttributes(2, attributes, values, reinterpret_cast<CUdeviceptr>(&host_value)));
  EXPECT_EQ(memory_type, 0u);
  EXPECT_EQ(range_size, 0u);
  ASSERT_CU(cuPointerGetAttributes(2, attributes, values, d));
  EXPECT_EQ(memory_type, CU_MEMORYTYPE_DEVICE);
  EXPECT_EQ(range_size, 3000u);
  ASSERT_CU(cuMemFree(d));
}

TEST_F(SimcudaMemory, PitchedAllocationsAreAligned) {
  CUdeviceptr d = 0;
  size_t pitch = 0;
  ASSERT_CU(cuMemAllocPitch(&d, &pitch, 1000, 3, 4));
  EXPECT_EQ(pitch % 512, 0u);
  EXPECT_GE(pitch, 1000u);
  size_t size = 0;
  CUdeviceptr base = 0;
  ASSERT_CU(cuMemGetAddressRange(&base, &size, d));
  EXPECT_EQ(size, pitch * 3);
  ASSERT_CU(cuMemFree(d));
}

TEST_F(SimcudaMemory, TwoDimensionalAndUnifiedCopies) {
  CUdeviceptr d = 0;
  size_t pitch = 0;
  ASSERT_CU(cuMemAllocPitch(&d, &pitch, 100, 3, 4));
  std::vector<unsigned char> host(300), back(300, 0);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<unsigned char>(i);
  CUDA_MEMCPY2D up{};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = host.data();
  up.srcPitch = 100;
  up.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  up.dstDevice = d;
  up.dstPitch = pitch;
  up.WidthInBytes = 100;
  up.Height = 3;
  ASSERT_CU(cuMemcpy2D(&up));
  unsigned char third_row = 0;
  ASSERT_CU(cuMemcpy(reinterpret_cast<CUdeviceptr>(&third_row), d + 2 * pitch + 1, 1));  // unified addressing
  EXPECT_EQ(third_row, 201);
  CUDA_MEMCPY2D down{};
  down.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  down.srcDevice = d;
  down.srcPitch = pitch;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = back.data();
  down.dstPitch = 100;
  down.WidthInBytes = 100;
  down.Height = 3;
  ASSERT_CU(cuMemcpy2DAsync(&down, nullptr));
  ASSERT_CU(cuStreamSynchronize(nullptr));
  EXPECT_EQ(back, host);
  down.Height = 4;  // past the allocation
  EXPECT_EQ(cuMemcpy2D(&down), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuMemFree(d));
}

TEST_F(SimcudaMemory, PinnedHostMemory) {
  void* pinned = nullptr;
  ASSERT_CU(cuMemAllocHost(&pinned, 1 << 20));
  unsigned type = 0;
  ASSERT_CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(pinned)));
  EXPECT_EQ(type, CU_MEMORYTYPE_HOST);
  CUdeviceptr mapped = 0;
  ASSERT_CU(cuMemHostGetDevicePointer(&mapped, pinned, 0));
  EXPECT_EQ(mapped, reinterpret_cast<CUdeviceptr>(pinned));
  ASSERT_CU(cuMemFreeHost(pinned));
  EXPECT_EQ(cuMemFreeHost(pinned), CUDA_ERROR_INVALID_VALUE);

  std::vector<char> buffer(8192);
  ASSERT_CU(cuMemHostRegister(buffer.data(), buffer.size(), 0));
  EXPECT_EQ(cuMemHostRegister(buffer.data() + 100, 10, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
  ASSERT_CU(cuMemHostUnregister(buffer.data()));
  EXPECT_EQ(cuMemHostUnregister(buffer.data()), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
}

TEST_F(SimcudaMemory, FreedPagesFault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        CUdeviceptr d = 0;
        if (cuMemAlloc(&d, 1 << 20) != CUDA_SUCCESS || cuMemFree(d) != CUDA_SUCCESS) return;
        unsigned long long bytes = 1 << 20;
        (void)launch("simcuda_test_touch", nullptr, d, bytes);
        (void)cuCtxSynchronize();
      },
      "simcuda: illegal address 0x[0-9a-f]+ in kernel simcuda_test_touch");
}

}  // namespace
