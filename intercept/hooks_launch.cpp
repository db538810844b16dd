// Hooks of kernel launches (plain, extended, cooperative, through a CUkernel handle), graph
// launches and host functions. Each launch records the allocations its parameters point into.
#include <vector>

#include "intercept/capture_state.h"
#include "intercept/device_timing.h"
#include "intercept/function_info.h"
#include "intercept/hook_abi.h"
#include "intercept/optimize_hooks.h"
#include "intercept/param_scan.h"
#include "intercept/recording.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {
namespace {

struct LaunchShape {
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
};

// Launches of one function with one shape are expected to take the same time.
uint64_t launch_kind(const trace::Launch& l) {
  uint64_t h = l.function;
  for (uint32_t v : {l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2], l.shared_bytes}) {
    h = (h ^ v) * 1099511628211ull;
  }
  return h;
}

// Records the launch around the real call `launch`, timing it when allowed.
template <class Launch>
CUresult record_launch(CUfunction function, CUstream stream, const LaunchShape& shape, void** params, void** extra,
                       Launch&& launch) {
  runtime::Recorder* rec = recorder();
  if (rec == nullptr) return launch();
  // One reusable event per thread: its access list keeps its capacity from launch to launch.
  struct LaunchEvent {
    trace::Event event{0, 0, 0, trace::Launch{}};
  };
  const auto lease = runtime::ThreadScratch<LaunchEvent>::get();
  trace::Event& event = lease->event;
  auto& l = std::get<trace::Launch>(event.record);
  const FunctionInfo& info = function_info(*rec, function);
  l.accesses.clear();
  l.params_decoded = extra != nullptr ? scan_extra(state().by_address, extra, l.accesses)
                                      : scan_kernel_params(state().by_address, info, params, l.accesses);
  l.op_id = rec->next_op_id();
  l.kernel_name_id = info.name_id;
  l.function = handle_u64(function);
  l.stream = handle_u64(stream);
  l.grid = {shape.grid[0], shape.grid[1], shape.grid[2]};
  l.block = {shape.block[0], shape.block[1], shape.block[2]};
  l.shared_bytes = shape.shared_bytes;
  l.captured = capture_state().capturing(l.stream);
  if (const CUresult o = optimize_before_launch(l, function, stream); o != CUDA_SUCCESS) return o;
  DeviceTimer timer(l.op_id, stream, l.captured, launch_kind(l));
  const CUresult r = launch();
  optimize_after_work(r == CUDA_SUCCESS);
  if (r == CUDA_SUCCESS) {
    rec->record(event);
    timer.finish();
  }
  return r;
}

}  // namespace

CUresult on_cuLaunchKernel(const Real<PFN_cuLaunchKernel_v4000>& real, CUfunction f, unsigned gx, unsigned gy,
                           unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared, CUstream stream,
                           void** params, void** extra) {
  return record_launch(f, real.effective_stream(stream), {{gx, gy, gz}, {bx, by, bz}, shared}, params, extra,
                       [&] { return real(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra); });
}

CUresult on_cuLaunchKernelEx(const Real<PFN_cuLaunchKernelEx_v11060>& real, const CUlaunchConfig* config,
                             CUfunction f, void** params, void** extra) {
  if (config == nullptr) return real(config, f, params, extra);
  const LaunchShape shape{{config->gridDimX, config->gridDimY, config->gridDimZ},
                          {config->blockDimX, config->blockDimY, config->blockDimZ},
                          config->sharedMemBytes};
  return record_launch(f, real.effective_stream(config->hStream), shape, params, extra,
                       [&] { return real(config, f, params, extra); });
}

CUresult on_cuLaunchCooperativeKernel(const Real<PFN_cuLaunchCooperativeKernel_v9000>& real, CUfunction f,
                                      unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                      unsigned shared, CUstream stream, void** params) {
  return record_launch(f, real.effective_stream(stream), {{gx, gy, gz}, {bx, by, bz}, shared}, params, nullptr,
                       [&] { return real(f, gx, gy, gz, bx, by, bz, shared, stream, params); });
}

CUresult on_cuGraphLaunch(const Real<PFN_cuGraphLaunch_v10000>& real, CUgraphExec graph, CUstream stream) {
  if (const CUresult o = optimize_before_graph_launch(real.effective_stream(stream)); o != CUDA_SUCCESS) return o;
  const CUresult r = real(graph, stream);
  optimize_after_work(r == CUDA_SUCCESS);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      rec->record(trace::GraphLaunch{rec->next_op_id(), handle_u64(graph), handle_u64(real.effective_stream(stream))});
    }
  }
  return r;
}

CUresult on_cuLaunchHostFunc(const Real<PFN_cuLaunchHostFunc_v10000>& real, CUstream stream, CUhostFn fn,
                             void* data) {
  const CUresult r = real(stream, fn, data);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t s = handle_u64(real.effective_stream(stream));
      rec->record(trace::HostFunc{s, capture_state().capturing(s)});
    }
  }
  return r;
}

CUresult on_cuStreamAddCallback(const Real<PFN_cuStreamAddCallback_v5000>& real, CUstream stream,
                                CUstreamCallback callback, void* data, unsigned int flags) {
  const CUresult r = real(stream, callback, data, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      const uint64_t s = handle_u64(real.effective_stream(stream));
      rec->record(trace::HostFunc{s, capture_state().capturing(s)});
    }
  }
  return r;
}

}  // namespace tidepool::intercept
