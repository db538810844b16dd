// The driver session of an example that links the driver (libcuda.so.1): initializes it, makes
// device 0's primary context current, loads the embedded module, and wraps the calls whose effect
// the example books (allocations, frees, launches) so its bookkeeping cannot drift from its calls.
// Every failed call ends the program through DriverCheck.
#pragma once

#include <cuda.h>

#include <source_location>
#include <string_view>

#include "tools/examples/common/bookkeeping.h"
#include "tools/examples/common/check.h"

namespace examples {

struct LaunchGrid {
  unsigned grid_x, grid_y;
  unsigned block_x, block_y;
};

// A 1-D grid of `block` threads per block covering n items.
LaunchGrid grid_for(long long n, unsigned block = 256);
// A 2-D grid of 16x16 blocks covering columns x rows.
LaunchGrid grid_2d(long long columns, long long rows);

class Session {
 public:
  explicit Session(std::string_view program);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const DriverCheck& check() const { return check_; }
  CUcontext context() const { return context_; }
  CUfunction function(const char* name) const;
  Bookkeeping& books() { return books_; }

  // Failures are reported at the caller's line.
  using Where = std::source_location;
  CUdeviceptr alloc(size_t bytes, Where where = Where::current());
  void free(CUdeviceptr address, Where where = Where::current());
  CUdeviceptr alloc_async(size_t bytes, CUstream stream, Where where = Where::current());
  CUdeviceptr alloc_from_pool_async(size_t bytes, CUmemoryPool pool, CUstream stream,
                                    Where where = Where::current());
  void free_async(CUdeviceptr address, CUstream stream, Where where = Where::current());

  // Launches `function` with the given arguments; their types must be the kernel's parameter types.
  template <typename... Args>
  void launch(CUfunction function, LaunchGrid grid, CUstream stream, Args... args) {
    void* params[] = {static_cast<void*>(&args)...};
    check_(cuLaunchKernel(function, grid.grid_x, grid.grid_y, 1, grid.block_x, grid.block_y, 1, 0,
                          stream, params, nullptr));
    books_.launched();
  }

 private:
  DriverCheck check_;
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  Bookkeeping books_;
};

}  // namespace examples
