// A small training-like program for the optimizer's end-to-end tests, on simcuda's test kernels:
// each step fills a persistent seed, allocates three temporaries, combines them with axpy into a
// persistent weight buffer and copies a result back; every step's events are the same, so the
// optimizer finds the iteration. Flags: --steps N, --elements N, --change-at STEP (from that step
// on, buffers have twice the elements: the program changes shape), --capture 1 (each step also
// captures a fill into a graph on a second stream and launches it), --sleep-us N (real time per
// step, so that background planning keeps up). Prints "checksum: <16 hex digits>" over the final
// weights and every step's result.
#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  std::fprintf(stderr, "steps_program: %s failed (%d)\n", what, static_cast<int>(r));
  std::exit(1);
}

struct Checksum {
  uint64_t hash = 14695981039346656037ull;
  void add(const void* data, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i)
      hash = (hash ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  }
};

struct Kernels {
  CUfunction fill = nullptr;
  CUfunction axpy = nullptr;
};

void fill(const Kernels& k, CUstream stream, CUdeviceptr dst, float value, unsigned n) {
  void* params[] = {&dst, &value, &n};
  check(cuLaunchKernel(k.fill, 1, 1, 1, 256, 1, 1, 0, stream, params, nullptr), "fill");
}

void axpy(const Kernels& k, float a, CUdeviceptr x, CUdeviceptr y, unsigned n) {
  void* params[] = {&a, &x, &y, &n};
  check(cuLaunchKernel(k.axpy, 1, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr), "axpy");
}

long flag(int argc, char** argv, const char* name, long fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::strtol(argv[i + 1], nullptr, 10);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const long steps = flag(argc, argv, "--steps", 20);
  const unsigned elements = static_cast<unsigned>(flag(argc, argv, "--elements", 1 << 20));
  const long change_at = flag(argc, argv, "--change-at", 0);
  const bool capture = flag(argc, argv, "--capture", 0) != 0;
  const long sleep_us = flag(argc, argv, "--sleep-us", 0);
  const unsigned most = change_at > 0 ? 2 * elements : elements;

  check(cuInit(0), "cuInit");
  CUdevice device = 0;
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  CUcontext context = nullptr;
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUmodule module = nullptr;
  check(cuModuleLoadData(&module, "steps_program"), "cuModuleLoadData");
  Kernels k;
  check(cuModuleGetFunction(&k.fill, module, "simcuda_test_fill"), "fill function");
  check(cuModuleGetFunction(&k.axpy, module, "simcuda_test_axpy"), "axpy function");
  CUstream side = nullptr;
  check(cuStreamCreate(&side, CU_STREAM_NON_BLOCKING), "cuStreamCreate");

  CUdeviceptr weights = 0, seed = 0, captured = 0;
  check(cuMemAlloc(&weights, most * sizeof(float)), "weights");
  check(cuMemAlloc(&seed, most * sizeof(float)), "seed");
  check(cuMemAlloc(&captured, most * sizeof(float)), "captured");
  check(cuMemsetD32(weights, 0, most), "memset weights");
  check(cuMemsetD32(captured, 0, most), "memset captured");

  Checksum checksum;
  std::vector<float> host(most);
  for (long step = 1; step <= steps; ++step) {
    const unsigned n = change_at > 0 && step >= change_at ? 2 * elements : elements;
    const size_t bytes = n * sizeof(float);
    fill(k, nullptr, seed, 1.0f + 0.25f * static_cast<float>(step % 7), n);
    CUdeviceptr x = 0, y = 0, t = 0;
    check(cuMemAlloc(&x, bytes), "x");
    check(cuMemAlloc(&y, bytes), "y");
    check(cuMemcpyDtoD(x, seed, bytes), "copy seed");
    check(cuMemsetD32(y, 0, n), "memset y");
    axpy(k, 2.0f, x, y, n);  // y = 2 x
    check(cuMemAlloc(&t, bytes), "t");
    check(cuMemcpyDtoD(t, y, bytes), "copy y");
    check(cuMemFree(x), "free x");
    axpy(k, 0.5f, t, weights, n);  // weights += y / 2
    check(cuMemFree(t), "free t");
    check(cuMemcpyDtoH(host.data(), y, bytes), "copy back");
    check(cuMemFree(y), "free y");
    checksum.add(host.data(), bytes);
    if (capture) {
      check(cuStreamBeginCapture(side, CU_STREAM_CAPTURE_MODE_GLOBAL), "begin capture");
      fill(k, side, captured, static_cast<float>(step), n);
      CUgraph graph = nullptr;
      check(cuStreamEndCapture(side, &graph), "end capture");
      CUgraphExec exec = nullptr;
      check(cuGraphInstantiate(&exec, graph, 0), "instantiate");
      check(cuGraphLaunch(exec, side), "graph launch");
      check(cuStreamSynchronize(side), "sync side");
      check(cuGraphExecDestroy(exec), "exec destroy");
      check(cuGraphDestroy(graph), "graph destroy");
    }
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
  }
  check(cuMemcpyDtoH(host.data(), weights, most * sizeof(float)), "copy weights");
  checksum.add(host.data(), most * sizeof(float));
  check(cuMemcpyDtoH(host.data(), captured, most * sizeof(float)), "copy captured");
  checksum.add(host.data(), most * sizeof(float));
  check(cuMemFree(weights), "free weights");
  check(cuMemFree(seed), "free seed");
  check(cuMemFree(captured), "free captured");
  check(cuStreamDestroy(side), "stream destroy");
  std::printf("checksum: %016llx\n", static_cast<unsigned long long>(checksum.hash));
  return 0;
}
