// What the optimizer's test programs (steps_program.cpp, random_program.cpp) share: a failed
// driver call ends the program with one line, a refused allocation is made again,
// "--name value" flags, the checksum they print,
// simcuda's test kernels, found after device 0's primary context is made current, and a relay
// that makes a program's calls on several threads in turn.
#pragma once

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace test_program {

// The name errors are prefixed with (set by main).
inline const char* program_name = "test program";

inline void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  std::fprintf(stderr, "%s: %s failed (%d)\n", program_name, what, static_cast<int>(r));
  std::exit(1);
}

// Runs `allocate` until it answers something other than out of memory, at most 1000 times, as a
// program that waits for memory would (SIMCUDA_OOM_RATE refuses requests); counts the refusals.
inline int out_of_memory_answers = 0;
template <typename Allocate>
CUresult retrying(Allocate allocate) {
  CUresult r = allocate();
  for (int tries = 1; r == CUDA_ERROR_OUT_OF_MEMORY && tries < 1000; ++tries) {
    ++out_of_memory_answers;
    r = allocate();
  }
  return r;
}

inline long flag(int argc, char** argv, const char* name, long fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::strtol(argv[i + 1], nullptr, 10);
  }
  return fallback;
}

// FNV-1a 64 over the results, printed as "checksum: <16 hex digits>".
struct Checksum {
  uint64_t hash = 14695981039346656037ull;
  void add(const void* data, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i)
      hash = (hash ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  }
  void print() const { std::printf("checksum: %016llx\n", static_cast<unsigned long long>(hash)); }
};

struct TestKernels {
  CUcontext context = nullptr;
  CUfunction fill = nullptr;  // (float* dst, float value, unsigned n)
  CUfunction axpy = nullptr;  // (float a, const float* x, float* y, unsigned n): y += a x
};

inline TestKernels open_test_kernels() {
  check(cuInit(0), "cuInit");
  CUdevice device = 0;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  TestKernels k;
  check(cuDevicePrimaryCtxRetain(&k.context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(k.context), "cuCtxSetCurrent");
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, program_name), "cuModuleLoadData");
  check(cuModuleGetFunction(&k.fill, module, "simcuda_test_fill"), "fill function");
  check(cuModuleGetFunction(&k.axpy, module, "simcuda_test_axpy"), "axpy function");
  return k;
}

// dst[0, n) = value, on `stream`.
inline void fill(const TestKernels& k, CUstream stream, CUdeviceptr dst, float value, unsigned n) {
  void* params[] = {&dst, &value, &n};
  check(cuLaunchKernel(k.fill, 1, 1, 1, 256, 1, 1, 0, stream, params, nullptr), "fill");
}

// y[0, n) += a x[0, n), on the legacy stream.
inline void axpy(const TestKernels& k, float a, CUdeviceptr x, CUdeviceptr y, unsigned n) {
  void* params[] = {&a, &x, &y, &n};
  check(cuLaunchKernel(k.axpy, 1, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr), "axpy");
}

// Makes calls one at a time, in the order given, each on the next of its threads in turn (or on
// the calling thread when it has one thread).
class Relay {
 public:
  Relay(long threads, CUcontext context) {
    for (long i = 1; i < threads; ++i)
      threads_.emplace_back([this, i, context] { serve(i, context); });
    count_ = threads;
  }
  ~Relay() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  void run(const std::function<void()>& call) {
    const long turn = next_++ % count_;
    if (turn == 0) {
      call();
      return;
    }
    std::unique_lock lock(mutex_);
    call_ = &call;
    turn_ = turn;
    changed_.notify_all();
    changed_.wait(lock, [&] { return call_ == nullptr; });
  }

 private:
  void serve(long index, CUcontext context) {
    check(cuCtxSetCurrent(context), "cuCtxSetCurrent (relay thread)");
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || (call_ != nullptr && turn_ == index); });
      if (stopping_) return;
      (*call_)();
      call_ = nullptr;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  const std::function<void()>* call_ = nullptr;  // the call waiting for thread turn_
  long turn_ = 0;
  long next_ = 0;
  long count_ = 1;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace test_program
