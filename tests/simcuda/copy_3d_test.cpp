// 3D, peer and batched copies, and arrays: opaque device memory that copies reach through their
// descriptors, counted in device memory.
#include <numeric>
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

using SimcudaCopy3D = SimcudaTest;

// A 3D copy between host and device boxes laid out with different pitches and slice heights.
TEST_F(SimcudaCopy3D, BoxesMoveBetweenDifferentLayouts) {
  constexpr size_t kWidth = 8, kHeight = 3, kDepth = 2;  // the box
  std::vector<unsigned char> host(16 * 4 * 3);           // pitch 16, 4 rows a slice, 3 slices
  std::iota(host.begin(), host.end(), 0);
  CUdeviceptr device = 0;
  ASSERT_CU(cuMemAlloc(&device, 32 * 5 * 2));  // pitch 32, 5 rows a slice
  ASSERT_CU(cuMemsetD8(device, 0xEE, 32 * 5 * 2));
  CUDA_MEMCPY3D up{};
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = host.data();
  up.srcXInBytes = 1;
  up.srcZ = 1;
  up.srcPitch = 16;
  up.srcHeight = 4;
  up.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  up.dstDevice = device;
  up.dstY = 1;
  up.dstPitch = 32;
  up.dstHeight = 5;
  up.WidthInBytes = kWidth;
  up.Height = kHeight;
  up.Depth = kDepth;
  ASSERT_CU(cuMemcpy3D(&up));
  std::vector<unsigned char> back(32 * 5 * 2);
  ASSERT_CU(cuMemcpyDtoH(back.data(), device, back.size()));
  for (size_t z = 0; z < kDepth; ++z)
    for (size_t y = 0; y < kHeight; ++y)
      for (size_t x = 0; x < kWidth; ++x)
        ASSERT_EQ(back[z * 160 + (y + 1) * 32 + x], host[(z + 1) * 64 + y * 16 + x + 1]) << z << " " << y << " " << x;
  EXPECT_EQ(back[0], 0xEE);       // row 0 untouched
  EXPECT_EQ(back[32 + 8], 0xEE);  // past the width
  up.Depth = 3;  // the source has no fourth slice
  EXPECT_EQ(cuMemcpy3D(&up), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuMemFree(device));
}

TEST_F(SimcudaCopy3D, PeerCopiesStayOnTheOneDevice) {
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(cuMemAlloc(&a, 1024));
  ASSERT_CU(cuMemAlloc(&b, 1024));
  ASSERT_CU(cuMemsetD32(a, 42, 256));
  ASSERT_CU(cuMemcpyPeer(b, context_, a, context_, 1024));
  ASSERT_CU(cuMemcpyPeerAsync(a, context_, b, context_, 512, nullptr));
  unsigned value = 0;
  ASSERT_CU(cuMemcpyDtoH(&value, b + 1020, sizeof value));
  EXPECT_EQ(value, 42u);
  EXPECT_EQ(cuMemcpyPeer(b, nullptr, a, context_, 1024), CUDA_ERROR_INVALID_CONTEXT);
  ASSERT_CU(cuMemFree(a));
  ASSERT_CU(cuMemFree(b));
}

TEST_F(SimcudaCopy3D, BatchedCopiesFollowTheirAttributes) {
  CUdeviceptr device = 0;
  ASSERT_CU(cuMemAlloc(&device, 64));
  std::vector<unsigned> host = {1, 2, 3, 4}, back(4, 0);
  CUstream s = nullptr;
  ASSERT_CU(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  CUdeviceptr dsts[] = {device, device + 16, reinterpret_cast<CUdeviceptr>(back.data())};
  CUdeviceptr srcs[] = {reinterpret_cast<CUdeviceptr>(host.data()), device, device + 16};
  size_t sizes[] = {16, 16, 16};
  CUmemcpyAttributes attrs[2] = {};
  attrs[0].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL;
  attrs[1].srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t firsts[] = {0, 1};
  ASSERT_CU(cuMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, firsts, 2, s));
  host[0] = 99;  // the first copy read its source during the call
  ASSERT_CU(cuStreamSynchronize(s));
  EXPECT_EQ(back, (std::vector<unsigned>{1, 2, 3, 4}));
  size_t bad_firsts[] = {1, 2};
  EXPECT_EQ(cuMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, bad_firsts, 2, s), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemcpyBatchAsync(dsts, srcs, sizes, 3, attrs, firsts, 2, nullptr), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuStreamDestroy(s));
  ASSERT_CU(cuMemFree(device));
}

TEST_F(SimcudaCopy3D, ArraysAreDeviceMemoryReachedByCopies) {
  size_t free_before = 0, total = 0;
  ASSERT_CU(cuMemGetInfo(&free_before, &total));
  CUDA_ARRAY_DESCRIPTOR desc{100, 20, CU_AD_FORMAT_FLOAT, 2};  // rows of 800 bytes
  CUarray array = nullptr;
  ASSERT_CU(cuArrayCreate(&array, &desc));
  size_t free_after = 0;
  ASSERT_CU(cuMemGetInfo(&free_after, &total));
  EXPECT_GE(free_before - free_after, 800u * 20);

  std::vector<float> in(200 * 20), out(200 * 20, -1.0f);
  std::iota(in.begin(), in.end(), 0.0f);
  CUDA_MEMCPY2D copy{};
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = in.data();
  copy.srcPitch = 800;
  copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  copy.dstArray = array;
  copy.WidthInBytes = 800;
  copy.Height = 20;
  ASSERT_CU(cuMemcpy2D(&copy));
  CUDA_MEMCPY3D down{};
  down.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  down.srcArray = array;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = out.data();
  down.dstPitch = 800;
  down.dstHeight = 20;
  down.WidthInBytes = 800;
  down.Height = 20;
  down.Depth = 1;
  ASSERT_CU(cuMemcpy3D(&down));
  EXPECT_EQ(out, in);
  copy.dstXInBytes = 8;  // the box would leave the array's rows
  EXPECT_EQ(cuMemcpy2D(&copy), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMipmappedArrayDestroy(reinterpret_cast<CUmipmappedArray>(array)), CUDA_ERROR_INVALID_HANDLE);
  ASSERT_CU(cuArrayDestroy(array));
  EXPECT_EQ(cuArrayDestroy(array), CUDA_ERROR_INVALID_HANDLE);
  ASSERT_CU(cuMemGetInfo(&free_after, &total));
  EXPECT_EQ(free_after, free_before);
}

TEST_F(SimcudaCopy3D, ThreeDimensionalAndMipmappedArrays) {
  CUDA_ARRAY3D_DESCRIPTOR desc{16, 16, 4, CU_AD_FORMAT_UNSIGNED_INT8, 4, 0};
  CUarray array = nullptr;
  ASSERT_CU(cuArray3DCreate(&array, &desc));
  CUmipmappedArray mipmap = nullptr;
  ASSERT_CU(cuMipmappedArrayCreate(&mipmap, &desc, 3));
  EXPECT_EQ(cuMipmappedArrayCreate(&mipmap, &desc, 0), CUDA_ERROR_INVALID_VALUE);
  ASSERT_CU(cuMipmappedArrayDestroy(mipmap));
  ASSERT_CU(cuArrayDestroy(array));
  CUDA_ARRAY3D_DESCRIPTOR bad = desc;
  bad.NumChannels = 3;
  EXPECT_EQ(cuArray3DCreate(&array, &bad), CUDA_ERROR_INVALID_VALUE);
  bad = desc;
  bad.Format = CU_AD_FORMAT_NV12;
  EXPECT_EQ(cuArray3DCreate(&array, &bad), CUDA_ERROR_NOT_SUPPORTED);
}

}  // namespace
