// The program `tidepool bench overhead` runs with and without libtidepool.so preloaded: it times
// cuLaunchKernel with 8 pointer parameters, cuMemAlloc/cuMemFree pairs, and optionally the pairs
// of a repeating loop that tidepool --optimize serves from its plan, on simcuda (CPU time of the
// calling thread), and prints one line:
// "<kernel> <pointer params> <ns per launch> <ns per alloc/free pair> <ns per allocation> <ns per
// free>", the last two from the repeating loop.
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
// processes competing for the machine (the recorder's background thread is not counted). Reading
// it is a system call.
double now_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// Wall time, read without entering the kernel (vDSO): for spans short enough that the system call
// of the CPU-time clock, made right before them, would weigh on what they measure.
double wall_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
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
// worker at each call (a cost of simcuda's threads, not of the driver or of tidepool). Its end
// releases the worker and waits for the queued work: the host function reads the object until
// it returns.
class BusyDevice {
 public:
  BusyDevice() { check(cuLaunchHostFunc(nullptr, &hold, this), "cuLaunchHostFunc"); }
  ~BusyDevice() {
    released_.store(true, std::memory_order_release);
    released_.notify_one();
    check(cuCtxSynchronize(), "cuCtxSynchronize");
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

// The time one reading of `clock` adds to a span it measures (subtracted from fine-grained spans).
double clock_cost_ns(double (*clock)()) {
  constexpr int kCalls = 1000;
  const double start = clock();
  for (int i = 0; i < kCalls; ++i) clock();
  return (clock() - start) / kCalls;
}

// Time per allocation and per free, each the fastest over windows of steps, by each clock.
struct PlannedTimes {
  double alloc_ns = 0;  // CPU time
  double free_ns = 0;
  double alloc_wall_ns = 0;  // wall time
  double free_wall_ns = 0;
};

// A training-like step that repeats exactly: four buffers of different sizes, one launch that
// uses them, frees in reverse; tidepool --optimize can plan it and serve it from its arena. Only
// the allocation and free calls are timed, in windows of kWindow steps; the fastest window counts
// (the last ones run under the plan, once it is installed). Windows alternate between the two
// clocks, so that both see the same phases of the run.
PlannedTimes time_planned_steps(const Kernel& k, const std::array<CUdeviceptr, 8>& persistent, long steps) {
  constexpr std::array<size_t, 4> kSizes = {1 << 20, 2 << 20, 512 << 10, 3 << 20};
  constexpr long kWindow = 256;
  PlannedTimes best;
  if (k.pointers != 8) return best;  // needs simcuda's 8-pointer kernel: not measured
  const double cpu_clock_ns = clock_cost_ns(now_ns);
  const double wall_clock_ns = clock_cost_ns(wall_ns);
  std::array<CUdeviceptr, 8> args = persistent;
  void* params[8];
  for (size_t i = 0; i < 8; ++i) params[i] = &args[i];
  const auto keep_fastest = [](double& best_ns, double ns) {
    if (best_ns == 0 || ns < best_ns) best_ns = ns;
  };
  for (long done = 0, window = 0; done < steps; done += kWindow, ++window) {
    const bool by_cpu = window % 2 == 0;
    double (*const clock)() = by_cpu ? now_ns : wall_ns;
    const double clock_ns = by_cpu ? cpu_clock_ns : wall_clock_ns;
    double allocating = 0, freeing = 0;
    for (long i = 0; i < kWindow; ++i) {
      double start = clock();
      for (size_t b = 0; b < kSizes.size(); ++b) check(cuMemAlloc(&args[b], kSizes[b]), "cuMemAlloc");
      allocating += clock() - start - clock_ns;
      check(cuLaunchKernel(k.function, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr), "launch");
      start = clock();
      for (size_t b = kSizes.size(); b-- > 0;) check(cuMemFree(args[b]), "cuMemFree");
      freeing += clock() - start - clock_ns;
    }
    const auto calls = static_cast<double>(kWindow * kSizes.size());
    keep_fastest(by_cpu ? best.alloc_ns : best.alloc_wall_ns, allocating / calls);
    keep_fastest(by_cpu ? best.free_ns : best.free_wall_ns, freeing / calls);
  }
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  return best;
}

}  // namespace

// Arguments: launches, alloc/free pairs, steps of the repeating loop; 0 skips one (and prints 0).
int main(int argc, char** argv) {
  const long launches = argc > 1 ? std::atol(argv[1]) : 100000;
  const long pairs = argc > 2 ? std::atol(argv[2]) : 100000;
  const long planned = argc > 3 ? std::atol(argv[3]) : 0;
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
  // Warm up caches (ours and the driver's) before timing what is asked for.
  if (launches > 0) time_launches(kernel, buffers, 2048);
  if (pairs > 0) time_alloc_pairs(2048);
  const double launch_ns = launches > 0 ? time_launches(kernel, buffers, launches) : 0.0;
  const double pair_ns = pairs > 0 ? time_alloc_pairs(pairs) : 0.0;
  const PlannedTimes steps = planned > 0 ? time_planned_steps(kernel, buffers, planned) : PlannedTimes{};
  std::printf("%s %d %.1f %.1f %.1f %.1f %.1f %.1f\n", kernel.name, kernel.pointers, launch_ns, pair_ns,
              steps.alloc_ns, steps.free_ns, steps.alloc_wall_ns, steps.free_wall_ns);
  for (CUdeviceptr b : buffers) check(cuMemFree(b), "cuMemFree");
  return 0;
}
