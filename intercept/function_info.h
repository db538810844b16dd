// What a launch needs to know about a kernel, asked of the driver once per function handle: its
// name (interned in the trace) and its parameter layout (cuFuncGetParamInfo, or
// cuKernelGetParamInfo for a CUkernel). Looked up on every launch through a per-thread cache, so
// the hot path takes no lock.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

#include "runtime/recorder.h"

namespace tidepool::intercept {

struct ParamSlot {
  uint32_t offset = 0;  // in the packed parameter buffer
  uint32_t size = 0;
};

struct FunctionInfo {
  uint32_t name_id = 0;
  bool layout_known = false;
  std::vector<ParamSlot> params;
};

// Never nullptr; the returned object lives as long as the process.
const FunctionInfo& function_info(runtime::Recorder& rec, CUfunction function);

// Forgets every cached function (a module was unloaded, so handles may be reused).
void forget_function_infos();

}  // namespace tidepool::intercept
