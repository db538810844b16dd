// The table-driven examples' workload (see workload.h).
#include "tools/examples/table_driven/workload.h"

#include <bit>
#include <vector>

#include "tools/examples/common/bookkeeping.h"
#include "tools/examples/common/check.h"
#include "tools/examples/common/checksum.h"
#include "tools/examples/common/fatbin.h"
#include "tools/examples/table_driven/table_math.h"

namespace table_driven {
namespace {

constexpr unsigned kThreads = 256;

class Launcher {
 public:
  Launcher(const DriverTable& driver, const examples::DriverCheck& check,
           examples::Bookkeeping& books)
      : driver_(driver), check_(check), books_(books) {}

  template <typename... Args>
  void operator()(CUfunction function, long long items, CUstream stream, Args... args) {
    void* params[] = {static_cast<void*>(&args)...};
    const auto blocks = static_cast<unsigned>((items + kThreads - 1) / kThreads);
    check_(driver_.cuLaunchKernel_fn(function, blocks, 1, 1, kThreads, 1, 1, 0, stream, params,
                                     nullptr));
    books_.launched();
  }

 private:
  const DriverTable& driver_;
  const examples::DriverCheck& check_;
  examples::Bookkeeping& books_;
};

}  // namespace

void run_workload(std::string_view program, const DriverTable& driver,
                  const WorkloadConfig& config) {
  const examples::DriverCheck check(program, driver.cuGetErrorName_fn);
  examples::Bookkeeping books;
  Launcher launch(driver, check, books);

  check(driver.cuInit_fn(0));
  CUdevice device = 0;
  check(driver.cuDeviceGet_fn(&device, 0));
  CUcontext context = nullptr;
  check(driver.cuDevicePrimaryCtxRetain_fn(&context, device));
  check(driver.cuCtxSetCurrent_fn(context));
  CUmodule module = nullptr;
  check(driver.cuModuleLoadData_fn(&module, examples::embedded_fatbin().data()));
  CUfunction fill = nullptr, axpy = nullptr, square_sums = nullptr;
  check(driver.cuModuleGetFunction_fn(&fill, module, "td_fill"));
  check(driver.cuModuleGetFunction_fn(&axpy, module, "td_axpy"));
  check(driver.cuModuleGetFunction_fn(&square_sums, module, "td_square_sums"));
  CUstream stream = nullptr;
  if (config.own_stream) check(driver.cuStreamCreate_fn(&stream, CU_STREAM_DEFAULT));

  auto alloc = [&](size_t bytes) {
    CUdeviceptr p = 0;
    check(driver.cuMemAlloc_fn(&p, bytes));
    books.allocated(p, bytes);
    return p;
  };
  auto release = [&](CUdeviceptr p) {
    books.freed(p);
    check(driver.cuMemFree_fn(p));
  };

  const long long n = config.elements;
  const long long parts = (n + kSumBlock - 1) / kSumBlock;
  const auto seed = static_cast<unsigned long long>(config.seed);
  examples::Checksum checksum;
  std::vector<float> host(parts);
  for (int i = 0; i < config.iterations; ++i) {
    CUdeviceptr x = alloc(n * sizeof(float));
    CUdeviceptr y = alloc(n * sizeof(float));
    launch(fill, n, stream, x, seed, static_cast<long long>(i), n);
    check(driver.cuMemsetD32Async_fn(y, std::bit_cast<unsigned>(initial_y(i)), n, stream));
    launch(axpy, n, stream, x, y, axpy_scale(i), n);
    release(x);
    CUdeviceptr sums = alloc(parts * sizeof(float));
    launch(square_sums, parts, stream, y, sums, n, kSumBlock);
    check(driver.cuMemcpyDtoHAsync_fn(host.data(), sums, parts * sizeof(float), stream));
    check(driver.cuStreamSynchronize_fn(stream));
    release(y);
    release(sums);
    checksum.add_values(std::span<const float>(host));
  }

  if (config.own_stream) check(driver.cuStreamDestroy_fn(stream));
  check(driver.cuModuleUnload_fn(module));
  check(driver.cuDevicePrimaryCtxRelease_fn(device));
  checksum.print();
  books.print();
}

}  // namespace table_driven
