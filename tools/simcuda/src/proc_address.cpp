// cuGetProcAddress(_v2): the generated export table, searched by name, CUDA version and the
// per-thread-default-stream flag, answering as the real driver does.
#include <algorithm>
#include <cstring>
#include <span>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/export_table.h"

namespace {

CUresult lookup(const char* symbol, void** pfn, int cuda_version, cuuint64_t flags,
                CUdriverProcAddressQueryResult* status) {
  const auto report = [&](CUdriverProcAddressQueryResult result) {
    if (status != nullptr) *status = result;
  };
  if (symbol == nullptr || pfn == nullptr) return CUDA_ERROR_INVALID_VALUE;
  constexpr cuuint64_t kKnownFlags = CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  if ((flags & ~kKnownFlags) != 0) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  const std::span<const SimcudaExport> table(simcuda_exports, simcuda_export_count);
  const auto first = std::lower_bound(table.begin(), table.end(), symbol, [](const SimcudaExport& e, const char* name) {
    return std::strcmp(e.name, name) < 0;
  });
  auto last = first;
  while (last != table.end() && std::strcmp(last->name, symbol) == 0) ++last;
  if (first == last) {
    report(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
    return CUDA_ERROR_NOT_FOUND;
  }
  // The newest plain variant not newer than the requested version.
  const SimcudaExport* chosen = nullptr;
  for (auto it = first; it != last; ++it)
    if (!it->per_thread && it->version <= cuda_version) chosen = &*it;
  if (chosen == nullptr) {
    report(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
    return CUDA_ERROR_NOT_FOUND;
  }
  if (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) {
    for (auto it = first; it != last; ++it)
      if (it->per_thread && it->version == chosen->version) chosen = &*it;
  }
  *pfn = reinterpret_cast<void*>(chosen->address);
  report(CU_GET_PROC_ADDRESS_SUCCESS);
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags) {
  return simcuda::guard([&] { return lookup(symbol, pfn, cudaVersion, flags, nullptr); });
}

SIMCUDA_API CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                                         CUdriverProcAddressQueryResult* symbolStatus) {
  return simcuda::guard([&] { return lookup(symbol, pfn, cudaVersion, flags, symbolStatus); });
}
