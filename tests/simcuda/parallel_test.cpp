// Twins and copies shared out over threads (run with SIMCUDA_THREADS=3, so that work splits into
// uneven parts): train_mlp's dense and Adam twins give the same bits as plain loops in the
// kernels' order, on shapes whose vector remainders fall inside the parts; large copies at odd
// offsets arrive whole; a fault in a helper thread is reported as the launching kernel's.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/simcuda/simcuda_test_util.h"
#include "tools/examples/common/hash.h"
#include "tools/examples/train_mlp/mlp_math.h"

namespace {

using SimcudaParallel = SimcudaTest;

// Values in [-scale, scale) with exact zeros and negative zeros among them.
std::vector<float> values(size_t n, uint64_t seed, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    const float u = examples::uniform_pm1(seed, 1, i);
    v[i] = u > 0.3f && u < 0.4f ? 0.0f : u > 0.4f && u < 0.45f ? -0.0f : scale * u;
  }
  return v;
}

size_t at(int row, int width, int column) {
  return static_cast<size_t>(row) * width + column;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

class DeviceFloats {
 public:
  explicit DeviceFloats(const std::vector<float>& host) : size_(host.size()) {
    EXPECT_CU(cuMemAlloc(&pointer_, bytes()));
    EXPECT_CU(cuMemcpyHtoD(pointer_, host.data(), bytes()));
  }
  ~DeviceFloats() { EXPECT_CU(cuMemFree(pointer_)); }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;

  CUdeviceptr get() const { return pointer_; }
  std::vector<float> read() const {
    std::vector<float> host(size_);
    EXPECT_CU(cuMemcpyDtoH(host.data(), pointer_, bytes()));
    return host;
  }

 private:
  size_t bytes() const { return size_ * sizeof(float); }
  size_t size_;
  CUdeviceptr pointer_ = 0;
};

constexpr int kBatch = 64;  // the full batch the twins declare work for; they compute kRows rows
constexpr int kRows = 5;

TEST_F(SimcudaParallel, DenseForwardMatchesTheKernelsOrder) {
  constexpr int in = 300, out = 701;
  const auto x = values(kRows * in, 1, 2.0f), w = values(in * out, 2, 0.1f), b = values(out, 3, 1);
  std::vector<float> expected(kRows * out);
  for (int r = 0; r < kRows; ++r) {
    for (int c = 0; c < out; ++c) {
      float acc = 0.0f;
      for (int k = 0; k < in; ++k) acc += x[at(r, in, k)] * w[at(k, out, c)];
      expected[at(r, out, c)] = acc + b[c];
    }
  }
  DeviceFloats dx(x), dw(w), db(b), dz(std::vector<float>(kRows * out, 7.0f));
  ASSERT_CU(launch("mlp_linear_forward", nullptr, dx.get(), dw.get(), db.get(), dz.get(), kBatch,
                   kRows, in, out));
  EXPECT_TRUE(same_bits(dz.read(), expected));
}

TEST_F(SimcudaParallel, DenseBackwardInputMatchesTheKernelsOrder) {
  constexpr int in = 701, out = 300;
  const auto dz = values(kRows * out, 4, 1.0f), w = values(in * out, 5, 0.1f);
  std::vector<float> expected(kRows * in);
  for (int r = 0; r < kRows; ++r) {
    for (int k = 0; k < in; ++k) {
      float acc = 0.0f;
      for (int c = 0; c < out; ++c) acc += dz[at(r, out, c)] * w[at(k, out, c)];
      expected[at(r, in, k)] = acc;
    }
  }
  DeviceFloats d_dz(dz), dw(w), dx(std::vector<float>(kRows * in, 7.0f));
  ASSERT_CU(launch("mlp_linear_backward_input", nullptr, d_dz.get(), dw.get(), dx.get(), kBatch,
                   kRows, in, out));
  EXPECT_TRUE(same_bits(dx.read(), expected));
}

TEST_F(SimcudaParallel, DenseBackwardWeightMatchesTheKernelsOrder) {
  constexpr int in = 301, out = 700;
  const auto x = values(kRows * in, 6, 2.0f), dz = values(kRows * out, 7, 1.0f);
  std::vector<float> expected(in * out);
  for (int k = 0; k < in; ++k) {
    for (int c = 0; c < out; ++c) {
      float acc = 0.0f;
      for (int r = 0; r < kRows; ++r) acc += x[at(r, in, k)] * dz[at(r, out, c)];
      expected[at(k, out, c)] = acc;
    }
  }
  DeviceFloats dx(x), d_dz(dz), dw(std::vector<float>(in * out, 7.0f));
  ASSERT_CU(launch("mlp_linear_backward_weight", nullptr, dx.get(), d_dz.get(), dw.get(), kBatch,
                   kRows, in, out));
  EXPECT_TRUE(same_bits(dw.read(), expected));
}

TEST_F(SimcudaParallel, AdamMatchesTheElementwiseUpdate) {
  constexpr long long n = 3 * (1 << 18) + 77;
  auto weight = values(n, 8, 1.0f), m = values(n, 9, 0.01f), v = values(n, 10, 0.001f);
  for (float& x : v) x = std::fabs(x);
  const auto grad = values(n, 11, 1.0f);
  DeviceFloats d_weight(weight), d_m(m), d_v(v), d_grad(grad);
  const mlp::AdamStep step = mlp::adam_step(3);
  for (long long i = 0; i < n; ++i) mlp::adam_update(weight[i], m[i], v[i], grad[i], step);
  ASSERT_CU(
      launch("mlp_adam", nullptr, d_weight.get(), d_m.get(), d_v.get(), d_grad.get(), step, n));
  EXPECT_TRUE(same_bits(d_weight.read(), weight));
  EXPECT_TRUE(same_bits(d_m.read(), m));
  EXPECT_TRUE(same_bits(d_v.read(), v));
}

TEST_F(SimcudaParallel, LargeCopiesAtOddOffsetsArriveWhole) {
  // 4 MiB + 1 byte in three parts leaves a last part of one byte. Device memory past the source
  // holds 0xff, host memory past the destination 0: a copy that went too far would show.
  for (const size_t bytes : {(9u << 20) + 13, (4u << 20) + 1}) {
    constexpr size_t kSlack = 32;
    std::vector<unsigned char> host(bytes + 3), back(bytes + 7 + kSlack, 0);
    for (size_t i = 0; i < host.size(); ++i)
      host[i] = static_cast<unsigned char>(examples::mix32(i));
    CUdeviceptr a = 0, b = 0;
    ASSERT_CU(cuMemAlloc(&a, bytes + 5));
    ASSERT_CU(cuMemAlloc(&b, bytes + 9 + kSlack));
    ASSERT_CU(cuMemsetD8(b, 0xff, bytes + 9 + kSlack));
    ASSERT_CU(cuMemcpyHtoD(a + 5, host.data() + 3, bytes));
    ASSERT_CU(cuMemcpyDtoD(b + 9, a + 5, bytes));
    ASSERT_CU(cuMemcpyDtoH(back.data() + 7, b + 9, bytes));
    EXPECT_EQ(std::memcmp(back.data() + 7, host.data() + 3, bytes), 0) << bytes;
    EXPECT_EQ(back[6], 0) << "written before the destination";
    EXPECT_EQ(std::count(back.begin() + 7 + bytes, back.end(), 0), kSlack) << "written past it";
    ASSERT_CU(cuMemFree(a));
    ASSERT_CU(cuMemFree(b));
  }
}

TEST_F(SimcudaParallel, AFaultInAHelperThreadNamesTheKernel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // weight: the last MiB of an accessible granule, followed by a reserved, unmapped one; only the
  // first of three parts of the update lies inside it.
  constexpr size_t kGranule = 2u << 20;
  constexpr long long n = 2 * (1 << 18) + 5;
  CUdeviceptr base = 0;
  ASSERT_CU(cuMemAddressReserve(&base, 2 * kGranule, 0, 0, 0));
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemGenericAllocationHandle handle{};
  ASSERT_CU(cuMemCreate(&handle, kGranule, &prop, 0));
  ASSERT_CU(cuMemMap(base, kGranule, 0, handle, 0));
  const CUmemAccessDesc access{{CU_MEM_LOCATION_TYPE_DEVICE, 0},
                               CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  ASSERT_CU(cuMemSetAccess(base, kGranule, &access, 1));
  const std::vector<float> zeros(n, 0.0f);
  DeviceFloats m(zeros), v(zeros), grad(zeros);
  const CUdeviceptr weight = base + kGranule / 2;
  EXPECT_DEATH(
      {
        (void)launch("mlp_adam", nullptr, weight, m.get(), v.get(), grad.get(), mlp::adam_step(1),
                     n);
        (void)cuCtxSynchronize();
      },
      "simcuda: illegal address 0x[0-9a-f]+ in kernel mlp_adam");
  ASSERT_CU(cuMemUnmap(base, kGranule));
  ASSERT_CU(cuMemRelease(handle));
  ASSERT_CU(cuMemAddressFree(base, 2 * kGranule));
}

}  // namespace
