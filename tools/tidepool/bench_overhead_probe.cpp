// The program `tidepool bench overhead` runs with and without libtidepool.so preloaded: it times
// cuLaunchKernel with 8 pointer parameters and cuMemAlloc/cuMemFree pairs on simcuda (CPU time of
// the calling thread) and prints one line:
// "<kernel> <pointer params> <ns per launch> <ns per alloc/free pair>".
#include <cuda.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "overhead probe: %s failed with %d\n", what, static_cast<int>(r));
    std::exit(1);
  }
}

// The calling thread's CPU time: what a call costs the program's thread, unaffected by other
// processes competing for the machine (the recorder's background thread is not counted).
double now_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// The kernel: simcuda's 8-pointer benchmark twin when it has one, else a 2-pointer test twin.
struct Kernel {
  CUfunction function = nullptr;
  const char* name = nullptr;
  int pointers = 0;
};

Kernel find_kernel(CUmodule module) {
  Kernel k;
  if (cuModuleGetFunction(&k.function, module, "tidepool_bench_pointers8") == CUDA_SUCCESS) {
    k.name = "tidepool_bench_pointers8";
    k.pointers = 8;
  } else {
    check(cuModuleGetFunction(&k.function, module, "simcuda_test_axpy"), "cuModuleGetFunction");
    k.name = "simcuda_test_axpy";
    k.pointers = 2;
  }
  return k;
}

// Holds the stream's worker in a host function while a batch is issued, as a busy GPU holds its
// queue: launches then only queue work, as on a real driver, instead of waking an idle simulated
// worker at each call (a cost of simcuda's threads, not of the driver or of tidepool).
class BusyDevice {
 public:
  BusyDevice() { check(cuLaunchHostFunc(nullptr, &hold, this), "cuLaunchHostFunc"); }
  ~BusyDevice() {
    released_.store(true, std::memory_order_release);
    released_.notify_one();
  }
  BusyDevice(const BusyDevice&) = delete;
  BusyDevice& operator=(const BusyDevice&) = delete;

 private:
  static void hold(void* self) { static_cast<BusyDevice*>(self)->released_.wait(false, std::memory_order_acquire); }
  std::atomic<bool> released_{false};
};

// Launches in batches while the device is busy; only the launch calls are timed (each batch is
// drained untimed).
double time_launches(const Kernel& k, std::array<CUdeviceptr, 8>& buffers, long count) {
  float scale = 1.0f;
  unsigned n = 0;  // axpy over nothing
  void* axpy_params[] = {&scale, &buffers[0], &buffers[1], &n};
  void* pointer_params[8];
  for (int i = 0; i < 8; ++i) pointer_params[i] = &buffers[static_cast<size_t>(i)];
  void** params = k.pointers == 8 ? pointer_params : axpy_params;
  constexpr long kBatch = 2048;
  double total = 0;
  for (long done = 0; done < count; done += kBatch) {
    const long batch = std::min(kBatch, count - done);
    {
      const BusyDevice busy;
      const double start = now_ns();
      for (long i = 0; i < batch; ++i) check(cuLaunchKernel(k.function, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), "launch");
      total += now_ns() - start;
    }
    check(cuCtxSynchronize(), "cuCtxSynchronize");
  }
  return total / static_cast<double>(count);
}

double time_alloc_pairs(long count) {
  const double start = now_ns();
  for (long i = 0; i < count; ++i) {
    CUdeviceptr p = 0;
    check(cuMemAlloc(&p, 256), "cuMemAlloc");
    check(cuMemFree(p), "cuMemFree");
  }
  return (now_ns() - start) / static_cast<double>(count);
}

}  // namespace

int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 100000;
  const long pairs = argc > 2 ? std::atol(argv[2]) : 100000;
  check(cuInit(0), "cuInit");
  CUcontext context = nullptr;
  check(cuDevicePrimaryCtxRetain(&context, 0), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUmodule module = nullptr;
  static const char image[] = "tidepool bench overhead";
  check(cuModuleLoadData(&module, image), "cuModuleLoadData");
  const Kernel kernel = find_kernel(module);
  std::array<CUdeviceptr, 8> buffers{};
  for (CUdeviceptr& b : buffers) check(cuMemAlloc(&b, 1 << 20), "cuMemAlloc");
  // Warm up caches (ours and the driver's) before timing.
  time_launches(kernel, buffers, 2048);
  time_alloc_pairs(2048);
  const double launch_ns = time_launches(kernel, buffers, launches);
  const double pair_ns = time_alloc_pairs(pairs);
  std::printf("%s %d %.1f %.1f\n", kernel.name, kernel.pointers, launch_ns, pair_ns);
  for (CUdeviceptr b : buffers) check(cuMemFree(b), "cuMemFree");
  return 0;
}
