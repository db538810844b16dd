// Stream-ordered allocation: the default pool and created pools, stream-ordered reuse, release
// at synchronization, pool attributes.
#include <cstdint>

#include "tests/simcuda/simcuda_test_util.h"

namespace {

class SimcudaMempool : public SimcudaTest {
 protected:
  void SetUp() override {
    SimcudaTest::SetUp();
    ASSERT_CU(cuStreamCreate(&s_, CU_STREAM_NON_BLOCKING));
    ASSERT_CU(cuStreamCreate(&t_, CU_STREAM_NON_BLOCKING));
    ASSERT_CU(cuDeviceGetDefaultMemPool(&pool_, 0));
  }
  void TearDown() override {
    EXPECT_CU(cuStreamDestroy(s_));
    EXPECT_CU(cuStreamDestroy(t_));
    SimcudaTest::TearDown();
  }
  uint64_t attribute(CUmemoryPool pool, CUmemPool_attribute a) {
    uint64_t value = 0;
    EXPECT_CU(cuMemPoolGetAttribute(pool, a, &value));
    return value;
  }

  CUstream s_ = nullptr, t_ = nullptr;
  CUmemoryPool pool_ = nullptr;
};

TEST_F(SimcudaMempool, AllocationsWorkInStreamOrder) {
  CUdeviceptr p = 0;
  ASSERT_CU(cuMemAllocAsync(&p, 4096, s_));
  ASSERT_CU(launch("simcuda_test_fill", s_, p, 2.5f, 1024u));
  float value = 0;
  ASSERT_CU(cuMemcpyDtoHAsync(&value, p + 4092, 4, s_));
  ASSERT_CU(cuMemFreeAsync(p, s_));
  ASSERT_CU(cuStreamSynchronize(s_));
  EXPECT_EQ(value, 2.5f);
  EXPECT_EQ(cuMemFreeAsync(p, s_), CUDA_ERROR_INVALID_VALUE);  // double free
  CUdeviceptr plain = 0;
  ASSERT_CU(cuMemAlloc(&plain, 4096));
  EXPECT_EQ(cuMemFreeAsync(plain, s_), CUDA_ERROR_INVALID_VALUE);  // not stream-ordered memory
  ASSERT_CU(cuMemFree(plain));
}

TEST_F(SimcudaMempool, FreedBlocksAreReusedOnTheirStreamAndEverywhereAfterASync) {
  const uint64_t keep_everything = UINT64_MAX;
  ASSERT_CU(cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, const_cast<uint64_t*>(&keep_everything)));
  CUdeviceptr a = 0, b = 0, c = 0, d = 0;
  ASSERT_CU(cuMemAllocAsync(&a, 1 << 20, s_));
  ASSERT_CU(cuMemFreeAsync(a, s_));
  ASSERT_CU(cuMemAllocAsync(&b, 1 << 20, s_));
  EXPECT_EQ(b, a);  // same stream: reused at once
  ASSERT_CU(cuMemFreeAsync(b, s_));
  ASSERT_CU(cuMemAllocAsync(&c, 1 << 20, t_));
  EXPECT_NE(c, a);  // another stream: not before the host synchronized
  ASSERT_CU(cuStreamSynchronize(s_));
  ASSERT_CU(cuMemAllocAsync(&d, 1 << 20, t_));
  EXPECT_EQ(d, a);
  EXPECT_EQ(attribute(pool_, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 2u << 20);
  EXPECT_EQ(attribute(pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2u << 20);
  ASSERT_CU(cuMemFreeAsync(c, t_));
  ASSERT_CU(cuMemFreeAsync(d, t_));

  const uint64_t release_all = 0;
  ASSERT_CU(cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, const_cast<uint64_t*>(&release_all)));
  ASSERT_CU(cuStreamSynchronize(t_));
  EXPECT_EQ(attribute(pool_, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0u);
  EXPECT_EQ(attribute(pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  EXPECT_EQ(attribute(pool_, CU_MEMPOOL_ATTR_USED_MEM_HIGH), 2u << 20);
}

TEST_F(SimcudaMempool, CreatedPools) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  CUmemoryPool pool = nullptr;
  ASSERT_CU(cuMemPoolCreate(&pool, &props));
  CUdeviceptr p = 0;
  ASSERT_CU(cuMemAllocFromPoolAsync(&p, 10000, pool, s_));
  CUmemoryPool owner = nullptr;
  ASSERT_CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, p));
  EXPECT_EQ(owner, pool);
  ASSERT_CU(cuMemFree(p));  // cuMemFree accepts stream-ordered memory too
  EXPECT_EQ(attribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  ASSERT_CU(cuMemPoolDestroy(pool));
  EXPECT_EQ(cuMemAllocFromPoolAsync(&p, 10000, pool, s_), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemPoolDestroy(pool_), CUDA_ERROR_INVALID_VALUE);  // the default pool stays
}

}  // namespace
