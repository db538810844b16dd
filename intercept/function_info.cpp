// Asks the driver about each kernel once and caches the answer, per process and per thread.
#include "intercept/function_info.h"

#include <cudaTypedefs.h>

#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>

#include "intercept/real_driver.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {
namespace {

struct Driver {
  PFN_cuFuncGetName_v12030 func_name = nullptr;
  PFN_cuKernelGetName_v12030 kernel_name = nullptr;
  PFN_cuFuncGetParamInfo_v12040 func_params = nullptr;
  PFN_cuKernelGetParamInfo_v12040 kernel_params = nullptr;
};

const Driver& driver() {
  static const Driver d{
      reinterpret_cast<PFN_cuFuncGetName_v12030>(real_driver_symbol("cuFuncGetName")),
      reinterpret_cast<PFN_cuKernelGetName_v12030>(real_driver_symbol("cuKernelGetName")),
      reinterpret_cast<PFN_cuFuncGetParamInfo_v12040>(real_driver_symbol("cuFuncGetParamInfo")),
      reinterpret_cast<PFN_cuKernelGetParamInfo_v12040>(real_driver_symbol("cuKernelGetParamInfo")),
  };
  return d;
}

// Parameters one at a time until the driver says the index is past the last one (invalid value);
// false when it cannot tell the layout at all (any other error).
template <class Handle, class Query>
bool read_layout(Query query, Handle handle, std::vector<ParamSlot>& out) {
  if (query == nullptr) return false;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    const CUresult r = query(handle, i, &offset, &size);
    if (r != CUDA_SUCCESS) return r == CUDA_ERROR_INVALID_VALUE;
    out.push_back({static_cast<uint32_t>(offset), static_cast<uint32_t>(size)});
  }
}

FunctionInfo ask_driver(runtime::Recorder& rec, CUfunction function) {
  FunctionInfo info;
  const Driver& d = driver();
  const char* name = nullptr;
  if (d.func_name == nullptr || d.func_name(&name, function) != CUDA_SUCCESS || name == nullptr) {
    // A CUkernel handle passed where a CUfunction goes (allowed since CUDA 12).
    if (d.kernel_name == nullptr || d.kernel_name(&name, reinterpret_cast<CUkernel>(function)) != CUDA_SUCCESS) {
      name = nullptr;
    }
  }
  info.name_id = rec.intern(name != nullptr ? name : "<unknown kernel>");
  info.layout_known = read_layout(d.func_params, function, info.params);
  if (!info.layout_known) {
    info.params.clear();
    info.layout_known = read_layout(d.kernel_params, reinterpret_cast<CUkernel>(function), info.params);
  }
  return info;
}

struct Registry {
  std::mutex mutex;
  std::unordered_map<CUfunction, FunctionInfo*> known;
  std::vector<FunctionInfo*> retired;  // forgotten entries stay allocated: threads may cache them
};
Registry& registry() {
  static auto* const r = new Registry;  // never destroyed: hooks may run during exit
  return *r;
}
std::atomic<uint64_t> g_generation{0};

// A thread's answers: a small direct-mapped table in front of a map of every function it met.
struct ThreadCache {
  struct Slot {
    CUfunction function = nullptr;
    const FunctionInfo* info = nullptr;
  };
  static constexpr size_t kSlots = 64;
  uint64_t generation = 0;
  std::array<Slot, kSlots> recent{};
  std::unordered_map<CUfunction, const FunctionInfo*> all;

  static size_t slot_of(CUfunction f) { return (reinterpret_cast<uintptr_t>(f) >> 4) % kSlots; }
};

const FunctionInfo* known_info(runtime::Recorder& rec, CUfunction function) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto [it, inserted] = r.known.try_emplace(function, nullptr);
  if (inserted) it->second = new FunctionInfo(ask_driver(rec, function));
  return it->second;
}

}  // namespace

const FunctionInfo& function_info(runtime::Recorder& rec, CUfunction function) {
  const auto lease = runtime::ThreadScratch<ThreadCache>::get();
  ThreadCache& cache = *lease;
  const uint64_t generation = g_generation.load(std::memory_order_acquire);
  if (cache.generation != generation) {
    cache.recent.fill({});
    cache.all.clear();
    cache.generation = generation;
  }
  ThreadCache::Slot& slot = cache.recent[ThreadCache::slot_of(function)];
  if (slot.function == function && slot.info != nullptr) return *slot.info;
  auto [it, inserted] = cache.all.try_emplace(function, nullptr);
  if (inserted) it->second = known_info(rec, function);
  slot = {function, it->second};
  return *it->second;
}

void forget_function_infos() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  for (auto& [function, info] : r.known) r.retired.push_back(info);
  r.known.clear();
  g_generation.fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace tidepool::intercept
