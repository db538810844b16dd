// The fixture of the swap space's tests: simcuda with a current context, two user streams, the
// test kernels, and helpers to write, read and settle device memory.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/swap/swap_space.h"
#include "tests/swap_space/simcuda_driver.h"

#define ASSERT_CU(call) ASSERT_EQ((call), CUDA_SUCCESS) << #call
#define EXPECT_CU(call) EXPECT_EQ((call), CUDA_SUCCESS) << #call

namespace tidepool::testing {

class SwapSpaceTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kMiB = 1ull << 20;

  void SetUp() override;
  void TearDown() override;

  const runtime::DriverApi& api() const { return simcuda().api; }

  // Bytes that differ from one seed to the next.
  static std::vector<uint8_t> pattern(uint64_t bytes, uint32_t seed);
  void write(CUdeviceptr address, const std::vector<uint8_t>& bytes);
  // A buffer of `bytes` from the swap space, filled with pattern(bytes, seed): its address (0,
  // with the failure reported, when the space refused it) and its contents.
  struct FilledBuffer {
    CUdeviceptr address = 0;
    std::vector<uint8_t> data;
  };
  FilledBuffer allocate_filled(runtime::SwapSpace& space, uint64_t bytes, uint32_t seed);
  std::vector<uint8_t> read(CUdeviceptr address, uint64_t bytes);
  // Reads on `stream` (queued after its earlier work), then waits for that stream.
  std::vector<uint8_t> read_on(CUstream stream, CUdeviceptr address, uint64_t bytes);
  // Waits for all device work, then finishes the swap space's completed transfers.
  std::vector<runtime::SwapEvent> settle(runtime::SwapSpace& space);
  uint64_t free_device_memory();
  // Holds `stream` (its later work waits) until open_gate(): orderings that must not depend on timing.
  void hold(CUstream stream);
  void open_gate();
  // Opens the gate from another thread after 50 ms, setting `opened` just before: a call that must
  // wait on the host for held work returns with `opened` set. Join the thread after the call.
  std::thread open_gate_later(std::atomic<bool>& opened);
  // Queues simcuda_test_sleep (real time) and simcuda_test_touch (adds 1 to every byte) on `stream`.
  void sleep_then_touch(CUstream stream, CUdeviceptr address, uint64_t bytes, unsigned microseconds);

  CUcontext context_ = nullptr;
  CUstream a_ = nullptr;
  CUstream b_ = nullptr;
  CUmodule module_ = nullptr;
  volatile uint32_t* gate_ = nullptr;  // pinned host memory: 0 closed, 1 open
};

}  // namespace tidepool::testing
