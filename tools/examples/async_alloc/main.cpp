// async_alloc: an iteration loop built on stream-ordered allocation. Each iteration allocates its
// buffers with cuMemAllocAsync (the device's default pool) and cuMemAllocFromPoolAsync (a pool it
// creates), computes, copies partial sums back and frees everything with cuMemFreeAsync, all on
// one stream; buffer sizes change from one iteration to the next. Prints a checksum of the partial
// sums on stdout and its own allocation bookkeeping on stderr.
#include <vector>

#include "tools/examples/async_alloc/async_math.h"
#include "tools/examples/common/checksum.h"
#include "tools/examples/common/flags.h"
#include "tools/examples/common/session.h"

namespace {

constexpr char kProgram[] = "async_alloc";
using async_alloc::kSumBlock;

CUmemoryPool create_pool(const examples::Session& session) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = 0;
  CUmemoryPool pool = nullptr;
  session.check()(cuMemPoolCreate(&pool, &props));
  return pool;
}

}  // namespace

int main(int argc, char** argv) {
  const examples::Flags flags(
      kProgram,
      {{"iterations", 16, 1, 100000, "iterations"},
       {"elements", 1 << 18, 1, 1 << 28, "floats per buffer (before growth)"},
       {"seed", 1, 0, int64_t{1} << 40, "seed of the data"}},
      argc, argv);
  const int iterations = static_cast<int>(flags["iterations"]);
  const auto seed = static_cast<unsigned long long>(flags["seed"]);

  examples::Session session(kProgram);
  const examples::DriverCheck& check = session.check();
  const CUfunction fill = session.function("aa_fill");
  const CUfunction combine = session.function("aa_combine");
  const CUfunction block_sums = session.function("aa_block_sums");
  CUstream stream = nullptr;
  check(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  const CUmemoryPool pool = create_pool(session);

  examples::Checksum checksum;
  for (int i = 0; i < iterations; ++i) {
    const long long n = async_alloc::iteration_elements(flags["elements"], i);
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    const long long parts = (n + kSumBlock - 1) / kSumBlock;
    const examples::LaunchGrid grid = examples::grid_for(n);

    CUdeviceptr a = session.alloc_async(bytes, stream);
    CUdeviceptr b = session.alloc_from_pool_async(bytes, pool, stream);
    session.launch(fill, grid, stream, a, seed, 2LL * i, n);
    session.launch(fill, grid, stream, b, seed, 2LL * i + 1, n);
    CUdeviceptr c = session.alloc_async(bytes, stream);
    session.launch(combine, grid, stream, a, b, c, n);
    session.free_async(a, stream);
    session.free_async(b, stream);
    CUdeviceptr sums = session.alloc_from_pool_async(parts * sizeof(float), pool, stream);
    session.launch(block_sums, examples::grid_for(parts), stream, c, sums, n, kSumBlock);
    session.free_async(c, stream);
    std::vector<float> host(parts);
    check(cuMemcpyDtoHAsync(host.data(), sums, parts * sizeof(float), stream));
    session.free_async(sums, stream);
    check(cuStreamSynchronize(stream));
    checksum.add_values(std::span<const float>(host));
  }
  check(cuMemPoolDestroy(pool));
  check(cuStreamDestroy(stream));
  checksum.print();
  session.books().print();
  return 0;
}
