// A program with a known sequence of allocations, frees and launches, for the SIMCUDA_STATS test:
//   plain 1000 + pitched (512 x 3) + async 3000 + VMM 2 MiB, peak 1000 + 1536 + 3000 + 2 MiB;
//   4 allocations, 3 frees (the plain one stays allocated), 2 kernel launches.
// With the argument `fork`, it also forks a child that exits at once while work is queued: the
// second launch waits behind a host function that holds the stream's worker until the child exits.
// With the argument `graph`, it also captures one more launch into a graph and launches it 3 times.
// With the argument `managed`, it also allocates managed memory: 5000 bytes freed, 7000 kept.
// With the argument `oom`, it only asks for memory, for SIMCUDA_OOM_RATE: 300 device allocations
// of 4096 bytes and 100 pinned host ones, each freed at once; out of memory is an answer, not an
// error.
#include <cuda.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  std::fprintf(stderr, "stats_probe: %s failed with %d\n", what, static_cast<int>(r));
  std::exit(1);
}

// The host function of the `fork` run: says it is running, then waits to be let go.
enum class Hold { queued, running, released };
std::atomic<Hold> hold{Hold::queued};

void hold_worker(void*) {
  hold = Hold::running;
  while (hold != Hold::released) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Forks while the worker is held inside hold_worker: it holds no lock and is not allocating, so the
// child inherits no lock held by a thread it lacks (GCC 12's ASan does not guard its allocator
// across fork). The child exits at once, running the exit handlers; it must be done within 30 s.
void fork_a_child_that_exits() {
  while (hold != Hold::running) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const pid_t child = fork();
  if (child == 0) std::exit(0);  // runs the exit handlers: must neither wait nor write stats
  if (child < 0) {
    std::fprintf(stderr, "stats_probe: fork failed\n");
    std::exit(1);
  }
  int status = 0;
  pid_t waited = 0;
  for (int ms = 0; waited == 0 && ms < 30000; ++ms) {
    waited = waitpid(child, &status, WNOHANG);
    if (waited == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (waited == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    std::fprintf(stderr, "stats_probe: the forked child did not exit within 30 s\n");
    std::exit(1);
  }
  if (waited != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "stats_probe: the forked child failed\n");
    std::exit(1);
  }
  hold = Hold::released;
}

// The `oom` run: only CUDA_SUCCESS and CUDA_ERROR_OUT_OF_MEMORY are answers it expects.
int ask_for_memory() {
  for (int i = 0; i < 300; ++i) {
    CUdeviceptr p = 0;
    const CUresult r = cuMemAlloc(&p, 4096);
    if (r == CUDA_SUCCESS)
      check(cuMemFree(p), "cuMemFree");
    else if (r != CUDA_ERROR_OUT_OF_MEMORY)
      check(r, "cuMemAlloc");
  }
  for (int i = 0; i < 100; ++i) {
    void* p = nullptr;
    const CUresult r = cuMemAllocHost(&p, 4096);
    if (r == CUDA_SUCCESS)
      check(cuMemFreeHost(p), "cuMemFreeHost");
    else if (r != CUDA_ERROR_OUT_OF_MEMORY)
      check(r, "cuMemAllocHost");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  check(cuInit(0), "cuInit");
  CUcontext ctx = nullptr;
  check(cuDevicePrimaryCtxRetain(&ctx, 0), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, "image"), "cuModuleLoadData");
  CUfunction work = nullptr;
  check(cuModuleGetFunction(&work, module, "simcuda_test_work"), "cuModuleGetFunction");

  if (argc > 1 && std::strcmp(argv[1], "oom") == 0) return ask_for_memory();

  CUdeviceptr plain = 0, pitched = 0, async = 0;
  size_t pitch = 0;
  check(cuMemAlloc(&plain, 1000), "cuMemAlloc");
  check(cuMemAllocPitch(&pitched, &pitch, 100, 3, 4), "cuMemAllocPitch");
  check(cuMemAllocAsync(&async, 3000, nullptr), "cuMemAllocAsync");
  CUdeviceptr reserved = 0;
  check(cuMemAddressReserve(&reserved, 2 << 20, 0, 0, 0), "cuMemAddressReserve");
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  CUmemGenericAllocationHandle handle = 0;
  check(cuMemCreate(&handle, 2 << 20, &prop, 0), "cuMemCreate");
  check(cuMemMap(reserved, 2 << 20, 0, handle, 0), "cuMemMap");
  check(cuMemRelease(handle), "cuMemRelease");  // not freed yet: still mapped

  double flops = 5e10, bytes = 0;  // 1 ms + 3 us each
  void* params[] = {&flops, &bytes};
  const bool forking = argc > 1 && std::strcmp(argv[1], "fork") == 0;
  check(cuLaunchKernel(work, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel");
  if (forking) check(cuLaunchHostFunc(nullptr, hold_worker, nullptr), "cuLaunchHostFunc");
  check(cuLaunchKernel(work, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), "cuLaunchKernel");
  if (forking) fork_a_child_that_exits();

  if (argc > 1 && std::strcmp(argv[1], "graph") == 0) {
    CUstream stream = nullptr;
    check(cuStreamCreate(&stream, CU_STREAM_DEFAULT), "cuStreamCreate");
    check(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
    check(cuLaunchKernel(work, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr), "cuLaunchKernel (captured)");
    CUgraph graph = nullptr;
    check(cuStreamEndCapture(stream, &graph), "cuStreamEndCapture");
    CUgraphExec exec = nullptr;
    check(cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
    for (int i = 0; i < 3; ++i) check(cuGraphLaunch(exec, stream), "cuGraphLaunch");
    check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    check(cuGraphExecDestroy(exec), "cuGraphExecDestroy");
    check(cuGraphDestroy(graph), "cuGraphDestroy");
    check(cuStreamDestroy(stream), "cuStreamDestroy");
  }

  if (argc > 1 && std::strcmp(argv[1], "managed") == 0) {
    CUdeviceptr freed = 0, kept = 0;
    check(cuMemAllocManaged(&freed, 5000, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
    check(cuMemAllocManaged(&kept, 7000, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
    check(cuMemFree(freed), "cuMemFree (managed)");
  }

  check(cuMemUnmap(reserved, 2 << 20), "cuMemUnmap");  // the physical memory is freed here
  check(cuMemAddressFree(reserved, 2 << 20), "cuMemAddressFree");
  check(cuMemFreeAsync(async, nullptr), "cuMemFreeAsync");
  check(cuMemFree(pitched), "cuMemFree");
  std::printf("pitch %zu\n", pitch);
  return 0;
}
