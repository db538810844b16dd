// The driver session of examples that link the driver (see session.h).
#include "tools/examples/common/session.h"

#include "tools/examples/common/fatbin.h"

namespace examples {

LaunchGrid grid_for(long long n, unsigned block) {
  return {static_cast<unsigned>((n + block - 1) / block), 1, block, 1};
}

LaunchGrid grid_2d(long long columns, long long rows) {
  constexpr unsigned kTile = 16;
  return {static_cast<unsigned>((columns + kTile - 1) / kTile),
          static_cast<unsigned>((rows + kTile - 1) / kTile), kTile, kTile};
}

Session::Session(std::string_view program) : check_(program, &cuGetErrorName) {
  check_(cuInit(0));
  check_(cuDeviceGet(&device_, 0));
  check_(cuDevicePrimaryCtxRetain(&context_, device_));
  check_(cuCtxSetCurrent(context_));
  check_(cuModuleLoadData(&module_, embedded_fatbin().data()));
}

Session::~Session() {
  check_(cuModuleUnload(module_));
  check_(cuDevicePrimaryCtxRelease(device_));
}

CUfunction Session::function(const char* name) const {
  CUfunction function = nullptr;
  check_(cuModuleGetFunction(&function, module_, name));
  return function;
}

CUdeviceptr Session::alloc(size_t bytes, Where where) {
  CUdeviceptr address = 0;
  check_(cuMemAlloc(&address, bytes), where);
  books_.allocated(address, bytes);
  return address;
}

// Booked before the call: once freed, the address may come back to another thread's allocation.
void Session::free(CUdeviceptr address, Where where) {
  books_.freed(address);
  check_(cuMemFree(address), where);
}

CUdeviceptr Session::alloc_async(size_t bytes, CUstream stream, Where where) {
  CUdeviceptr address = 0;
  check_(cuMemAllocAsync(&address, bytes, stream), where);
  books_.allocated(address, bytes);
  return address;
}

CUdeviceptr Session::alloc_from_pool_async(size_t bytes, CUmemoryPool pool, CUstream stream,
                                           Where where) {
  CUdeviceptr address = 0;
  check_(cuMemAllocFromPoolAsync(&address, bytes, pool, stream), where);
  books_.allocated(address, bytes);
  return address;
}

void Session::free_async(CUdeviceptr address, CUstream stream, Where where) {
  books_.freed(address);
  check_(cuMemFreeAsync(address, stream), where);
}

}  // namespace examples
