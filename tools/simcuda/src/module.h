// Modules and libraries: any image is accepted as it is; their functions (and kernels, the same
// objects) resolve by name against the registry of kernel twins.
#pragma once

#include <string>

#include "simcuda/kernel.h"
#include "tools/simcuda/src/api.h"

namespace simcuda {

struct Function {
  const KernelInfo* twin = nullptr;
  std::string name;
  void* owner = nullptr;       // the Module it belongs to
  uint32_t param_bytes = 0;    // size of the packed parameter buffer
};

// The function a CUfunction (or a CUkernel cast to one) names; nullptr when none.
Function* find_function(const void* handle);

}  // namespace simcuda
