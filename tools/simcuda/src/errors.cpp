// cuGetErrorName and cuGetErrorString, answered from the table generated from cuda.h.
#include <algorithm>
#include <span>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/error_table.h"

namespace {

const SimcudaError* find_error(CUresult code) {
  const std::span<const SimcudaError> table(simcuda_errors, simcuda_error_count);
  const auto it = std::lower_bound(table.begin(), table.end(), static_cast<int>(code),
                                   [](const SimcudaError& e, int c) { return e.code < c; });
  return it != table.end() && it->code == static_cast<int>(code) ? &*it : nullptr;
}

}  // namespace

SIMCUDA_API CUresult cuGetErrorName(CUresult error, const char** pStr) {
  const SimcudaError* e = find_error(error);
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (e == nullptr) {
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pStr = e->name;
  return CUDA_SUCCESS;
}

SIMCUDA_API CUresult cuGetErrorString(CUresult error, const char** pStr) {
  const SimcudaError* e = find_error(error);
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (e == nullptr) {
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pStr = e->description;
  return CUDA_SUCCESS;
}
