// The contract between simcuda and the CPU twins of GPU kernels.
//
// simcuda accepts any module image as it is; a function is found by its symbol name in a registry
// of CPU implementations compiled into simcuda. Each twin declares its parameter layout (what
// cuFuncGetParamInfo reports, and how the packed `extra` buffer of cuLaunchKernel is split) and
// returns the work of the *full* problem, which drives the simulated clock:
//   duration = max(flops / 50 TFLOP/s, bytes / 2 TB/s) + 3 us,
// whatever sample of that problem the twin actually computes on the CPU.
//
// A twin runs on its stream's worker thread, in stream order, with device pointers that are plain
// host addresses inside simcuda's device heap; a large one may share its work out (parallel_for).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string_view>

namespace simcuda {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  unsigned shared_bytes = 0;
};

// The work of the whole problem, as the GPU kernel would do it.
struct Work {
  double flops = 0;
  double bytes = 0;
};

struct Param {
  uint32_t offset;  // byte offset in the packed parameter buffer (CUDA ABI alignment)
  uint32_t size;
};

// params[i] points at the bytes of parameter i, exactly as cuLaunchKernel's kernelParams.
using KernelBody = Work (*)(const LaunchShape& shape, void* const* params);

struct KernelInfo {
  std::string_view name;          // the kernel's symbol name (declare kernels extern "C")
  std::span<const Param> params;  // in declaration order
  KernelBody body;
};

// Adds a twin to the registry; called from static initializers inside libcuda.so.1.
void register_kernel(const KernelInfo& info);
// nullptr when no twin has that name.
const KernelInfo* find_kernel(std::string_view name);

// Runs body(begin, end) on disjoint ranges that cover [0, count), each a multiple of `grain` long
// (the last one excepted), on the calling thread and up to SIMCUDA_THREADS - 1 helper threads
// (fewer when there are fewer grains); returns when all are done. A fault in a helper is reported
// as the caller's kernel. Only for work whose result does not depend on the split: every output
// written by one range, and a body that does not throw.
void parallel_for(int64_t count, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

// Registers a twin at load time: SIMCUDA_KERNEL(my_kernel, kParams, &my_kernel_body);
struct KernelRegistrar {
  explicit KernelRegistrar(const KernelInfo& info) { register_kernel(info); }
};
#define SIMCUDA_KERNEL(name, params_array, body) \
  static const ::simcuda::KernelRegistrar simcuda_registrar_##name{{#name, params_array, body}}

}  // namespace simcuda
