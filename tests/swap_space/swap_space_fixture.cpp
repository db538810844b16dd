// The fixture of the swap space's tests (see swap_space_fixture.h).
#include "tests/swap_space/swap_space_fixture.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <random>

namespace tidepool::testing {

void SwapSpaceTest::SetUp() {
  const SimcudaDriver& d = simcuda();
  ASSERT_TRUE(d.api.complete());
  ASSERT_CU(d.init(0));
  ASSERT_CU(d.primary_ctx_retain(&context_, 0));
  ASSERT_CU(d.api.ctx_set_current(context_));
  ASSERT_CU(d.api.stream_create(&a_, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(d.api.stream_create(&b_, CU_STREAM_NON_BLOCKING));
  static const char kImage[] = "simcuda accepts any image";
  ASSERT_CU(d.module_load_data(&module_, kImage));
  void* gate = nullptr;
  ASSERT_CU(d.api.mem_alloc_host(&gate, sizeof(uint32_t)));
  gate_ = static_cast<volatile uint32_t*>(gate);
  *gate_ = 0;
}

void SwapSpaceTest::TearDown() {
  const SimcudaDriver& d = simcuda();
  if (gate_ != nullptr) open_gate();  // nothing stays held by a failed test
  EXPECT_CU(d.api.ctx_synchronize());
  if (gate_ != nullptr) {
    EXPECT_CU(d.api.mem_free_host(const_cast<uint32_t*>(gate_)));
  }
  if (module_ != nullptr) {
    EXPECT_CU(d.module_unload(module_));
  }
  for (CUstream stream : {a_, b_}) {
    if (stream != nullptr) {
      EXPECT_CU(d.api.stream_destroy(stream));
    }
  }
  if (context_ != nullptr) {
    EXPECT_CU(d.primary_ctx_release(0));
  }
}

std::vector<uint8_t> SwapSpaceTest::pattern(uint64_t bytes, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint8_t> data(bytes);
  for (uint64_t i = 0; i < bytes; i += 4) {
    const uint32_t word = random();
    std::memcpy(data.data() + i, &word, std::min<uint64_t>(4, bytes - i));
  }
  return data;
}

SwapSpaceTest::FilledBuffer SwapSpaceTest::allocate_filled(runtime::SwapSpace& space, uint64_t bytes,
                                                          uint32_t seed) {
  FilledBuffer buffer;
  const CUresult r = space.allocate(bytes, &buffer.address);
  EXPECT_EQ(r, CUDA_SUCCESS) << "space.allocate(" << bytes << ")";
  if (r != CUDA_SUCCESS) return {};
  buffer.data = pattern(bytes, seed);
  write(buffer.address, buffer.data);
  return buffer;
}

void SwapSpaceTest::write(CUdeviceptr address, const std::vector<uint8_t>& bytes) {
  ASSERT_CU(api().memcpy_htod(address, bytes.data(), bytes.size()));
}

std::vector<uint8_t> SwapSpaceTest::read(CUdeviceptr address, uint64_t bytes) {
  std::vector<uint8_t> data(bytes);
  EXPECT_CU(api().memcpy_dtoh(data.data(), address, bytes));
  return data;
}

std::vector<uint8_t> SwapSpaceTest::read_on(CUstream stream, CUdeviceptr address, uint64_t bytes) {
  std::vector<uint8_t> data(bytes);
  void* pinned = nullptr;
  EXPECT_CU(api().mem_alloc_host(&pinned, bytes));
  EXPECT_CU(api().memcpy_dtoh_async(pinned, address, bytes, stream));
  EXPECT_CU(api().stream_synchronize(stream));
  std::copy_n(static_cast<const uint8_t*>(pinned), bytes, data.begin());
  EXPECT_CU(api().mem_free_host(pinned));
  return data;
}

std::vector<runtime::SwapEvent> SwapSpaceTest::settle(runtime::SwapSpace& space) {
  EXPECT_CU(api().ctx_synchronize());
  return space.poll();
}

uint64_t SwapSpaceTest::free_device_memory() {
  size_t free = 0, total = 0;
  EXPECT_CU(api().mem_get_info(&free, &total));
  return free;
}

void SwapSpaceTest::hold(CUstream stream) {
  *gate_ = 0;
  const auto address = reinterpret_cast<CUdeviceptr>(const_cast<uint32_t*>(gate_));
  ASSERT_CU(simcuda().stream_wait_value32(stream, address, 1, CU_STREAM_WAIT_VALUE_EQ));
}

void SwapSpaceTest::open_gate() { *gate_ = 1; }

std::thread SwapSpaceTest::open_gate_later(std::atomic<bool>& opened) {
  return std::thread([this, &opened] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    opened = true;
    open_gate();
  });
}

void SwapSpaceTest::sleep_then_touch(CUstream stream, CUdeviceptr address, uint64_t bytes, unsigned microseconds) {
  const SimcudaDriver& d = simcuda();
  CUfunction sleep = nullptr, touch = nullptr;
  ASSERT_CU(d.module_get_function(&sleep, module_, "simcuda_test_sleep"));
  ASSERT_CU(d.module_get_function(&touch, module_, "simcuda_test_touch"));
  void* sleep_params[] = {&microseconds};
  ASSERT_CU(d.launch_kernel(sleep, 1, 1, 1, 1, 1, 1, 0, stream, sleep_params, nullptr));
  unsigned long long length = bytes;
  void* touch_params[] = {&address, &length};
  ASSERT_CU(d.launch_kernel(touch, 1, 1, 1, 1, 1, 1, 0, stream, touch_params, nullptr));
}

}  // namespace tidepool::testing
