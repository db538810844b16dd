// cuLaunchKernel (parameter array or packed `extra` buffer), cuLaunchKernelEx and
// cuLaunchCooperativeKernel: the twin runs on the stream's worker; its declared work sets its
// simulated duration, max(flops / 50 TFLOP/s, bytes / 2 TB/s) + 3 us.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <vector>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/fault_handler.h"
#include "tools/simcuda/src/module.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/stats.h"

namespace simcuda {
namespace {

constexpr double kFlopsPerNs = 50000;       // 50 TFLOP/s
constexpr double kDeviceBytesPerNs = 2000;  // 2 TB/s
constexpr int64_t kLaunchOverheadNs = 3000; // 3 us

int64_t kernel_ns(const Work& work) {
  return std::llround(std::max(work.flops / kFlopsPerNs, work.bytes / kDeviceBytesPerNs)) + kLaunchOverheadNs;
}

// Copies the parameters (they may change once the launch call returns) into one packed buffer.
CUresult pack_parameters(const Function& f, void** kernel_params, void** extra, std::vector<unsigned char>& buffer) {
  buffer.assign(f.param_bytes, 0);
  if (kernel_params != nullptr && extra != nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (kernel_params != nullptr) {
    for (size_t i = 0; i < f.twin->params.size(); ++i) {
      if (kernel_params[i] == nullptr) return CUDA_ERROR_INVALID_VALUE;
      std::memcpy(buffer.data() + f.twin->params[i].offset, kernel_params[i], f.twin->params[i].size);
    }
    return CUDA_SUCCESS;
  }
  if (extra == nullptr) return f.twin->params.empty() ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  const void* packed = nullptr;
  const size_t* packed_size = nullptr;
  for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) packed = extra[i + 1];
    else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) packed_size = static_cast<const size_t*>(extra[i + 1]);
    else return CUDA_ERROR_INVALID_VALUE;
  }
  if (packed == nullptr || packed_size == nullptr || *packed_size < f.param_bytes) return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(buffer.data(), packed, f.param_bytes);
  return CUDA_SUCCESS;
}

CUresult launch(const void* handle, LaunchShape shape, CUstream stream_handle, bool per_thread,
                void** kernel_params, void** extra) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  Function* f = find_function(handle);
  if (f == nullptr) return CUDA_ERROR_INVALID_HANDLE;
  const Dim3& g = shape.grid;
  const Dim3& b = shape.block;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0) return CUDA_ERROR_INVALID_VALUE;
  if (uint64_t{b.x} * b.y * b.z > 1024 || b.z > 64) return CUDA_ERROR_INVALID_VALUE;
  if (g.x > 2147483647u || g.y > 65535 || g.z > 65535) return CUDA_ERROR_INVALID_VALUE;
  if (shape.shared_bytes > 232448) return CUDA_ERROR_INVALID_VALUE;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(stream_handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  auto buffer = std::make_shared<std::vector<unsigned char>>();
  if (const CUresult r = pack_parameters(*f, kernel_params, extra, *buffer); r != CUDA_SUCCESS) return r;
  const KernelInfo* twin = f->twin;
  const char* name = f->name.c_str();
  enqueue(*stream, Engine::compute, -1, [twin, name, shape, buffer](Op& op) {
    std::vector<void*> params;
    for (const Param& p : twin->params) params.push_back(buffer->data() + p.offset);
    set_current_work(name);
    Work work;
    try {
      work = twin->body(shape, params.data());
    } catch (const std::exception& e) {
      std::fprintf(stderr, "simcuda: kernel %s failed: %s\n", name, e.what());
      std::abort();
    }
    set_current_work(nullptr);
    if (!(work.flops >= 0 && work.bytes >= 0 && std::isfinite(work.flops) && std::isfinite(work.bytes))) {
      std::fprintf(stderr, "simcuda: kernel %s declared invalid work (flops %g, bytes %g)\n", name, work.flops,
                   work.bytes);
      std::abort();
    }
    op.duration_ns = kernel_ns(work);
  }, {}, stats_kernel_launch);
  return CUDA_SUCCESS;
}

CUresult launch_ex(const CUlaunchConfig* config, CUfunction f, void** kernel_params, void** extra, bool per_thread) {
  if (config == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const LaunchShape shape{{config->gridDimX, config->gridDimY, config->gridDimZ},
                          {config->blockDimX, config->blockDimY, config->blockDimZ},
                          config->sharedMemBytes};
  return launch(f, shape, config->hStream, per_thread, kernel_params, extra);
}

}  // namespace
}  // namespace simcuda

using namespace simcuda;

SIMCUDA_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                    unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                    unsigned int sharedMemBytes, CUstream hStream, void** kernelParams, void** extra) {
  return guard([&] {
    return launch(f, {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes}, hStream,
                  false, kernelParams, extra);
  });
}

SIMCUDA_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                         unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                         unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                         void** kernelParams, void** extra) {
  return guard([&] {
    return launch(f, {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes}, hStream,
                  true, kernelParams, extra);
  });
}

SIMCUDA_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                               unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                               unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                                               void** kernelParams) {
  return guard([&] {
    return launch(f, {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes}, hStream,
                  false, kernelParams, nullptr);
  });
}

SIMCUDA_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                                    unsigned int gridDimZ, unsigned int blockDimX,
                                                    unsigned int blockDimY, unsigned int blockDimZ,
                                                    unsigned int sharedMemBytes, CUstream hStream,
                                                    void** kernelParams) {
  return guard([&] {
    return launch(f, {{gridDimX, gridDimY, gridDimZ}, {blockDimX, blockDimY, blockDimZ}, sharedMemBytes}, hStream,
                  true, kernelParams, nullptr);
  });
}

SIMCUDA_API CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra) {
  return guard([&] { return launch_ex(config, f, kernelParams, extra, false); });
}

SIMCUDA_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction f, void** kernelParams,
                                           void** extra) {
  return guard([&] { return launch_ex(config, f, kernelParams, extra, true); });
}
