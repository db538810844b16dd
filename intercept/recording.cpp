// The helpers hooks record with.
#include "intercept/recording.h"

#include <cudaTypedefs.h>

#include <array>

#include "intercept/real_driver.h"
#include "runtime/call_stack.h"
#include "runtime/settings.h"

namespace tidepool::intercept {
namespace {

int driver_version() {
  int version = 0;
  if (auto fn = reinterpret_cast<PFN_cuDriverGetVersion_v2020>(real_driver_symbol("cuDriverGetVersion"))) fn(&version);
  return version;
}

}  // namespace

runtime::Recorder* recorder() { return runtime::Recorder::get(&driver_version); }

Placement current_placement() {
  static const auto get_context = reinterpret_cast<PFN_cuCtxGetCurrent_v4000>(real_driver_symbol("cuCtxGetCurrent"));
  static const auto get_device = reinterpret_cast<PFN_cuCtxGetDevice_v2000>(real_driver_symbol("cuCtxGetDevice"));
  Placement p;
  CUcontext context = nullptr;
  if (get_context != nullptr && get_context(&context) == CUDA_SUCCESS) p.context = handle_u64(context);
  CUdevice device = 0;
  if (get_device != nullptr && get_device(&device) == CUDA_SUCCESS) p.device = device;
  return p;
}

uint32_t allocation_stack(runtime::Recorder& rec) {
  if (!runtime::settings().stacks) return 0;
  std::array<uint64_t, runtime::kMaxStackFrames> frames;
  const size_t n = runtime::capture_call_stack(frames);
  return rec.stack_id(std::span<const uint64_t>(frames.data(), n));
}

uint64_t imported_size(CUdeviceptr address) {
  static const auto get_range =
      reinterpret_cast<PFN_cuMemGetAddressRange_v3020>(real_driver_symbol("cuMemGetAddressRange_v2"));
  CUdeviceptr base = 0;
  size_t size = 0;
  if (get_range == nullptr || get_range(&base, &size, address) != CUDA_SUCCESS) return 0;
  return size;
}

trace::Range range_of(uint64_t address, uint64_t bytes) {
  if (const auto hit = state().by_address.find(address)) return {hit->alloc_id, hit->offset, bytes};
  return {0, address, bytes};
}

trace::Alloc make_alloc(runtime::Recorder& rec, trace::AllocKind kind, uint64_t address, uint64_t size,
                        const Placement& where) {
  trace::Alloc a;
  a.alloc_id = rec.next_alloc_id();
  a.kind = kind;
  a.address = address;
  a.size = size;
  a.device = where.device;
  a.context = where.context;
  a.stack_id = allocation_stack(rec);
  return a;
}

uint64_t record_alloc(runtime::Recorder& rec, trace::AllocKind kind, uint64_t address, uint64_t size,
                      uint64_t stream, uint64_t pool, uint64_t handle, bool served_by_runtime) {
  const Placement where = current_placement();
  trace::Alloc a = make_alloc(rec, kind, address, size, where);
  a.stream = stream;
  a.pool = pool;
  a.handle = handle;
  a.captured = stream != 0 && capture_state().capturing(stream);
  if (a.captured) {
    graph_allocations().add(address, {a.alloc_id, kind});
  } else if (address != 0 && kind != trace::AllocKind::vmm_reserve) {
    state().by_address.add({address, size, a.alloc_id, 0, where.context, where.device, kind, served_by_runtime});
  }
  rec.record(a);
  return a.alloc_id;
}

}  // namespace tidepool::intercept
