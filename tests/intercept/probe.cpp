// A small driver-API program that the interception tests run under libtidepool.so on simcuda.
// Each mode reaches the driver one way and does a known sequence:
//   linked | dlsym | procaddress | procaddress-ptds   allocate 1 MiB and 2 MiB, free the first;
//                                                    an async HtoD copy on stream 0
//   launch     kernels whose parameters point into the middle of an allocation, and a struct
//              parameter holding two pointers (simcuda's testing twins)
//   served-query
//              2000 steps of: allocate A (1 MiB) and B (2 MiB), a launch on both, free both; at
//              step 1900 (under --optimize=pool, long after the plan serves them) ask for A's range
//              three ways through an interior pointer and check that each answers A itself, then
//              try to export A and print "export: <result>" on stderr
//   hang       allocate 1 MiB, say "ready", sleep until killed
//   chain      allocate 1000 bytes and free them (the chained-interposer test)
//   fork       allocate 1 MiB, fork a child that calls the driver (which refuses, as CUDA does after
//              fork) and exits 0 when the call returns, then allocate 2 MiB
//   exec       allocate 1 MiB, then at once exec a program that never calls the driver
//   strided    D and E: 64 KiB each; a 2D host-to-device copy into D (5 rows of 100 bytes, pitch
//              1024, from byte 16 of row 2) and a 3D copy from D to E (2 layers of 3 rows of 64
//              bytes; D: pitch 512, 4 rows per layer, from byte 8 of row 1 of layer 1; E: pitch
//              256, 3 rows per layer)
//   capture [graph-memory]
//              allocate A (4096 bytes); capture on stream 1: a launch, a second stream joining
//              through an event and launching, questions about the capture, the end; a launch on
//              the second stream after it; a capture-mode exchange; a capture invalidated by an
//              allocation that simcuda refuses; then free A. With graph-memory (the graph memory
//              interposer preloaded), the capture also allocates 8192 bytes and frees them, and
//              the invalidated capture is left out.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "probe: %s failed with %d\n", what, static_cast<int>(r));
    std::exit(1);
  }
}

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "probe: %s\n", what);
    std::exit(1);
  }
}

// The driver functions a mode uses, however they were obtained.
struct Api {
  PFN_cuInit_v2000 init = nullptr;
  PFN_cuDevicePrimaryCtxRetain_v7000 retain = nullptr;
  PFN_cuCtxSetCurrent_v4000 set_current = nullptr;
  PFN_cuMemAlloc_v3020 alloc = nullptr;
  PFN_cuMemFree_v3020 free = nullptr;
  PFN_cuMemcpyHtoDAsync_v3020 copy_async = nullptr;
  PFN_cuStreamSynchronize_v2000 sync = nullptr;
};

Api linked() {
  return {&cuInit, &cuDevicePrimaryCtxRetain, &cuCtxSetCurrent, &cuMemAlloc_v2, &cuMemFree_v2, &cuMemcpyHtoDAsync_v2,
          &cuStreamSynchronize};
}

template <class T>
T lookup(void* handle, const char* name) {
  void* f = dlsym(handle, name);
  if (f == nullptr) {
    std::fprintf(stderr, "probe: dlsym %s failed\n", name);
    std::exit(1);
  }
  return reinterpret_cast<T>(f);
}

Api through_dlsym() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) std::exit(1);
  return {lookup<PFN_cuInit_v2000>(driver, "cuInit"),
          lookup<PFN_cuDevicePrimaryCtxRetain_v7000>(driver, "cuDevicePrimaryCtxRetain"),
          lookup<PFN_cuCtxSetCurrent_v4000>(driver, "cuCtxSetCurrent"),
          lookup<PFN_cuMemAlloc_v3020>(driver, "cuMemAlloc_v2"),
          lookup<PFN_cuMemFree_v3020>(driver, "cuMemFree_v2"),
          lookup<PFN_cuMemcpyHtoDAsync_v3020>(driver, "cuMemcpyHtoDAsync_v2"),
          lookup<PFN_cuStreamSynchronize_v2000>(driver, "cuStreamSynchronize")};
}

template <class T>
T proc(PFN_cuGetProcAddress_v12000 get, const char* name, cuuint64_t flags) {
  void* f = nullptr;
  CUdriverProcAddressQueryResult status{};
  check(get(name, &f, 13000, flags, &status), name);
  return reinterpret_cast<T>(f);
}

Api through_proc_address(bool per_thread) {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  auto get = lookup<PFN_cuGetProcAddress_v12000>(driver, "cuGetProcAddress_v2");
  const cuuint64_t flags = per_thread ? CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM : CU_GET_PROC_ADDRESS_DEFAULT;
  // The CUDA runtime also asks for cuGetProcAddress itself.
  get = proc<PFN_cuGetProcAddress_v12000>(get, "cuGetProcAddress", flags);
  return {proc<PFN_cuInit_v2000>(get, "cuInit", flags),
          proc<PFN_cuDevicePrimaryCtxRetain_v7000>(get, "cuDevicePrimaryCtxRetain", flags),
          proc<PFN_cuCtxSetCurrent_v4000>(get, "cuCtxSetCurrent", flags),
          proc<PFN_cuMemAlloc_v3020>(get, "cuMemAlloc", flags),
          proc<PFN_cuMemFree_v3020>(get, "cuMemFree", flags),
          proc<PFN_cuMemcpyHtoDAsync_v3020>(get, "cuMemcpyHtoDAsync", flags),
          proc<PFN_cuStreamSynchronize_v2000>(get, "cuStreamSynchronize", flags)};
}

void start(const Api& api) {
  check(api.init(0), "cuInit");
  CUcontext context = nullptr;
  check(api.retain(&context, 0), "cuDevicePrimaryCtxRetain");
  check(api.set_current(context), "cuCtxSetCurrent");
}

void allocations(const Api& api) {
  start(api);
  CUdeviceptr first = 0, second = 0;
  check(api.alloc(&first, 1 << 20), "cuMemAlloc");
  check(api.alloc(&second, 2 << 20), "cuMemAlloc");
  static char payload[64] = {};
  check(api.copy_async(second, payload, sizeof payload, nullptr), "cuMemcpyHtoDAsync");
  check(api.sync(nullptr), "cuStreamSynchronize");
  check(api.free(first), "cuMemFree");
}

CUfunction kernel(const char* name) {
  static CUmodule module = [] {
    CUmodule m = nullptr;
    static const char image[] = "simcuda accepts any image";
    check(cuModuleLoadData(&m, image), "cuModuleLoadData");
    return m;
  }();
  CUfunction f = nullptr;
  check(cuModuleGetFunction(&f, module, name), name);
  return f;
}

// A: 4096 bytes, B: 8192 bytes, C: 12288 bytes.
void launches() {
  start(linked());
  CUdeviceptr a = 0, b = 0, c = 0;
  check(cuMemAlloc(&a, 4096), "cuMemAlloc");
  check(cuMemAlloc(&b, 8192), "cuMemAlloc");
  check(cuMemAlloc(&c, 12288), "cuMemAlloc");
  // axpy(a, x = A + 256, y = B, n): an interior pointer and a base pointer.
  float scale = 2.0f;
  CUdeviceptr x = a + 256;
  unsigned n = 64;
  void* axpy_params[] = {&scale, &x, &b, &n};
  check(cuLaunchKernel(kernel("simcuda_test_axpy"), 1, 1, 1, 64, 1, 1, 0, nullptr, axpy_params, nullptr), "axpy");
  // pair({from = A, to = C + 16}, n): two pointers inside one struct parameter.
  struct {
    CUdeviceptr from, to;
  } pair{a, c + 16};
  void* pair_params[] = {&pair, &n};
  check(cuLaunchKernel(kernel("simcuda_test_pair"), 1, 1, 1, 64, 1, 1, 0, nullptr, pair_params, nullptr), "pair");
  // fill(dst = C + 4096, value, n) through the packed `extra` buffer.
  struct {
    CUdeviceptr dst;
    float value;
    unsigned n;
  } packed{c + 4096, 1.0f, 64};
  size_t packed_size = sizeof packed;
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &packed, CU_LAUNCH_PARAM_BUFFER_SIZE, &packed_size,
                   CU_LAUNCH_PARAM_END};
  check(cuLaunchKernel(kernel("simcuda_test_fill"), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra), "fill");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
}

void strided() {
  start(linked());
  CUdeviceptr d = 0, e = 0;
  check(cuMemAlloc(&d, 64 << 10), "cuMemAlloc");
  check(cuMemAlloc(&e, 64 << 10), "cuMemAlloc");
  static char host[1024] = {};
  CUDA_MEMCPY2D flat{};
  flat.srcMemoryType = CU_MEMORYTYPE_HOST;
  flat.srcHost = host;
  flat.srcPitch = 100;
  flat.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  flat.dstDevice = d;
  flat.dstXInBytes = 16;
  flat.dstY = 2;
  flat.dstPitch = 1024;
  flat.WidthInBytes = 100;
  flat.Height = 5;
  check(cuMemcpy2D(&flat), "cuMemcpy2D");
  CUDA_MEMCPY3D deep{};
  deep.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  deep.srcDevice = d;
  deep.srcXInBytes = 8;
  deep.srcY = 1;
  deep.srcZ = 1;
  deep.srcPitch = 512;
  deep.srcHeight = 4;
  deep.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  deep.dstDevice = e;
  deep.dstPitch = 256;
  deep.dstHeight = 3;
  deep.WidthInBytes = 64;
  deep.Height = 3;
  deep.Depth = 2;
  check(cuMemcpy3D(&deep), "cuMemcpy3D");
  check(cuMemFree(e), "cuMemFree");
  check(cuMemFree(d), "cuMemFree");
}

void served_query() {
  start(linked());
  CUfunction pair = kernel("simcuda_test_pair");
  for (int step = 0; step < 2000; ++step) {
    CUdeviceptr a = 0, b = 0;
    check(cuMemAlloc(&a, 1 << 20), "cuMemAlloc");
    check(cuMemAlloc(&b, 2 << 20), "cuMemAlloc");
    struct {
      CUdeviceptr from, to;
    } pointers{a, b};
    unsigned n = 64;
    void* params[] = {&pointers, &n};
    check(cuLaunchKernel(pair, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr), "pair");
    if (step == 1900) {
      CUdeviceptr base = 0;
      size_t size = 0;
      check(cuMemGetAddressRange(&base, &size, a + 100), "cuMemGetAddressRange");
      expect(base == a && size == 1 << 20, "cuMemGetAddressRange did not answer the buffer's own range");
      check(cuPointerGetAttribute(&base, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, a + 100), "cuPointerGetAttribute");
      check(cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, a + 100), "cuPointerGetAttribute");
      expect(base == a && size == 1 << 20, "cuPointerGetAttribute did not answer the buffer's own range");
      CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_RANGE_SIZE, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR};
      base = size = 0;
      void* answers[] = {&size, &base};
      check(cuPointerGetAttributes(2, attributes, answers, a + 100), "cuPointerGetAttributes");
      expect(base == a && size == 1 << 20, "cuPointerGetAttributes did not answer the buffer's own range");
      CUipcMemHandle handle{};
      std::fprintf(stderr, "export: %d\n", static_cast<int>(cuIpcGetMemHandle(&handle, a)));
    }
    check(cuMemFree(b), "cuMemFree");
    check(cuMemFree(a), "cuMemFree");
  }
  check(cuCtxSynchronize(), "cuCtxSynchronize");
}

void hang() {
  start(linked());
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, 1 << 20), "cuMemAlloc");
  std::printf("ready\n");
  std::fflush(stdout);
  for (;;) pause();
}

void chain() {
  start(linked());
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, 1000), "cuMemAlloc");
  check(cuMemFree(p), "cuMemFree");
}

void fork_after_start() {
  start(linked());
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, 1 << 20), "cuMemAlloc");
  const pid_t child = fork();
  if (child == 0) {
    CUdeviceptr q = 0;
    (void)cuMemAlloc(&q, 4096);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "probe: the forked child failed\n");
    std::exit(1);
  }
  check(cuMemAlloc(&p, 2 << 20), "cuMemAlloc");
}

void exec_at_once() {
  start(linked());
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, 1 << 20), "cuMemAlloc");
  execl("/bin/sh", "sh", "-c", "exit 0", static_cast<char*>(nullptr));
  std::fprintf(stderr, "probe: exec failed\n");
  std::exit(1);
}

CUstreamCaptureStatus capture_status(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  check(cuStreamIsCapturing(stream, &status), "cuStreamIsCapturing");
  return status;
}

void captures(bool graph_memory) {
  start(linked());
  CUdeviceptr a = 0;
  check(cuMemAlloc(&a, 4096), "cuMemAlloc");
  CUstream origin = nullptr, joined = nullptr;
  check(cuStreamCreate(&origin, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  check(cuStreamCreate(&joined, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  CUevent forked = nullptr, back = nullptr;
  check(cuEventCreate(&forked, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  check(cuEventCreate(&back, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  CUfunction fill = kernel("simcuda_test_fill");
  float value = 1.0f;
  unsigned n = 64;
  void* params[] = {&a, &value, &n};
  check(cuLaunchKernel(fill, 1, 1, 1, 64, 1, 1, 0, origin, params, nullptr), "launch before the capture");

  check(cuStreamBeginCapture(origin, CU_STREAM_CAPTURE_MODE_GLOBAL), "cuStreamBeginCapture");
  check(cuLaunchKernel(fill, 1, 1, 1, 64, 1, 1, 0, origin, params, nullptr), "captured launch");
  CUdeviceptr graph_memory_address = 0;
  if (graph_memory) check(cuMemAllocAsync(&graph_memory_address, 8192, origin), "captured cuMemAllocAsync");
  check(cuEventRecord(forked, origin), "cuEventRecord");
  check(cuStreamWaitEvent(joined, forked, 0), "cuStreamWaitEvent");
  expect(capture_status(joined) == CU_STREAM_CAPTURE_STATUS_ACTIVE, "the joined stream does not capture");
  check(cuLaunchKernel(fill, 2, 1, 1, 64, 1, 1, 0, joined, params, nullptr), "launch on the joined stream");
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  check(cuStreamGetCaptureInfo(origin, &status, &id, nullptr, nullptr, nullptr, nullptr), "cuStreamGetCaptureInfo");
  expect(status == CU_STREAM_CAPTURE_STATUS_ACTIVE && id != 0, "the origin does not capture");
  if (graph_memory) check(cuMemFreeAsync(graph_memory_address, origin), "captured cuMemFreeAsync");
  check(cuEventRecord(back, joined), "cuEventRecord");
  check(cuStreamWaitEvent(origin, back, 0), "cuStreamWaitEvent");
  CUgraph graph = nullptr;
  check(cuStreamEndCapture(origin, &graph), "cuStreamEndCapture");
  expect(capture_status(joined) == CU_STREAM_CAPTURE_STATUS_NONE, "the joined stream still captures");
  check(cuLaunchKernel(fill, 3, 1, 1, 64, 1, 1, 0, joined, params, nullptr), "launch after the capture");

  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  check(cuThreadExchangeStreamCaptureMode(&mode), "cuThreadExchangeStreamCaptureMode");
  check(cuThreadExchangeStreamCaptureMode(&mode), "cuThreadExchangeStreamCaptureMode");

  if (!graph_memory) {
    // simcuda refuses a stream-ordered allocation during capture, which invalidates the capture.
    check(cuStreamBeginCapture(origin, CU_STREAM_CAPTURE_MODE_RELAXED), "cuStreamBeginCapture");
    CUdeviceptr refused = 0;
    expect(cuMemAllocAsync(&refused, 4096, origin) != CUDA_SUCCESS, "an allocation during capture succeeded");
    CUgraph invalid = nullptr;
    expect(cuStreamEndCapture(origin, &invalid) != CUDA_SUCCESS, "an invalidated capture ended well");
    check(cuLaunchKernel(fill, 4, 1, 1, 64, 1, 1, 0, origin, params, nullptr), "launch after the invalid capture");
  }
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  check(cuMemFree(a), "cuMemFree");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "linked") {
    allocations(linked());
  } else if (mode == "dlsym") {
    allocations(through_dlsym());
  } else if (mode == "procaddress") {
    allocations(through_proc_address(false));
  } else if (mode == "procaddress-ptds") {
    allocations(through_proc_address(true));
  } else if (mode == "launch") {
    launches();
  } else if (mode == "strided") {
    strided();
  } else if (mode == "served-query") {
    served_query();
  } else if (mode == "hang") {
    hang();
  } else if (mode == "chain") {
    chain();
  } else if (mode == "fork") {
    fork_after_start();
  } else if (mode == "exec") {
    exec_at_once();
  } else if (mode == "capture") {
    captures(argc > 2 && std::string(argv[2]) == "graph-memory");
  } else {
    std::fprintf(stderr, "usage: probe linked|dlsym|procaddress|procaddress-ptds|launch|strided|served-query|hang|chain|fork|exec|capture [graph-memory]\n");
    return 2;
  }
  return 0;
}
