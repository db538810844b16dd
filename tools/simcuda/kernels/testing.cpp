// Small kernel twins that simcuda's own tests launch: a fill, an axpy, a kernel taking a struct
// of two pointers, one that touches every byte given to it, one that only declares work, and one
// that takes real time (to make races visible).
#include <chrono>
#include <cstring>
#include <thread>

#include "simcuda/kernel.h"

namespace {

using simcuda::LaunchShape;
using simcuda::Param;
using simcuda::Work;

template <class T>
T arg(void* const* params, int i) {
  T value;
  std::memcpy(&value, params[i], sizeof value);
  return value;
}

// simcuda_test_fill(float* dst, float value, unsigned n)
constexpr Param kFillParams[] = {{0, 8}, {8, 4}, {12, 4}};
Work fill(const LaunchShape&, void* const* params) {
  auto* dst = arg<float*>(params, 0);
  const auto value = arg<float>(params, 1);
  const auto n = arg<unsigned>(params, 2);
  for (unsigned i = 0; i < n; ++i) dst[i] = value;
  return {0, 4.0 * n};
}

// simcuda_test_axpy(float a, const float* x, float* y, unsigned n): y = a * x + y
constexpr Param kAxpyParams[] = {{0, 4}, {8, 8}, {16, 8}, {24, 4}};
Work axpy(const LaunchShape&, void* const* params) {
  const auto a = arg<float>(params, 0);
  const auto* x = arg<const float*>(params, 1);
  auto* y = arg<float*>(params, 2);
  const auto n = arg<unsigned>(params, 3);
  for (unsigned i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
  return {2.0 * n, 12.0 * n};
}

// simcuda_test_pair(struct { const float* from; float* to; } pair, unsigned n): to += from
struct Pair {
  const float* from;
  float* to;
};
constexpr Param kPairParams[] = {{0, 16}, {16, 4}};
Work pair(const LaunchShape&, void* const* params) {
  const auto p = arg<Pair>(params, 0);
  const auto n = arg<unsigned>(params, 1);
  for (unsigned i = 0; i < n; ++i) p.to[i] += p.from[i];
  return {1.0 * n, 12.0 * n};
}

// simcuda_test_touch(unsigned char* p, unsigned long long bytes): increments every byte
constexpr Param kTouchParams[] = {{0, 8}, {8, 8}};
Work touch(const LaunchShape&, void* const* params) {
  auto* p = arg<volatile unsigned char*>(params, 0);
  const auto bytes = arg<unsigned long long>(params, 1);
  for (unsigned long long i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(p[i] + 1);
  return {0, 2.0 * static_cast<double>(bytes)};
}

// simcuda_test_work(double flops, double bytes): does nothing, declares that work
constexpr Param kWorkParams[] = {{0, 8}, {8, 8}};
Work declared_work(const LaunchShape&, void* const* params) { return {arg<double>(params, 0), arg<double>(params, 1)}; }

// simcuda_test_sleep(unsigned microseconds): takes that much real time, declares no work
constexpr Param kSleepParams[] = {{0, 4}};
Work sleep(const LaunchShape&, void* const* params) {
  std::this_thread::sleep_for(std::chrono::microseconds(arg<unsigned>(params, 0)));
  return {};
}

// tidepool_bench_pointers8(8 pointers): does nothing; the interceptor's overhead benchmark launches it
constexpr Param kPointers8Params[] = {{0, 8}, {8, 8}, {16, 8}, {24, 8}, {32, 8}, {40, 8}, {48, 8}, {56, 8}};
Work no_work(const LaunchShape&, void* const*) { return {}; }

}  // namespace

SIMCUDA_KERNEL(tidepool_bench_pointers8, kPointers8Params, &no_work);
SIMCUDA_KERNEL(simcuda_test_fill, kFillParams, &fill);
SIMCUDA_KERNEL(simcuda_test_axpy, kAxpyParams, &axpy);
SIMCUDA_KERNEL(simcuda_test_pair, kPairParams, &pair);
SIMCUDA_KERNEL(simcuda_test_touch, kTouchParams, &touch);
SIMCUDA_KERNEL(simcuda_test_work, kWorkParams, &declared_work);
SIMCUDA_KERNEL(simcuda_test_sleep, kSleepParams, &sleep);
