// A plain CUDA runtime program for scripts/gpu/check.sh (issue 3): cudaMalloc/cudaFree and kernel
// launches in a loop, with buffers of changing sizes, some kept across iterations. It counts its
// own allocations, frees, peak requested bytes and launches, and prints them the way the driver-API
// examples do (`bookkeeping: {...}` on stderr, `checksum: <hex>` on stdout), so that the report of
// `tidepool run` can be compared with what the program did.
//   usage: runtime_app [iterations (default 20)]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

namespace {

// Stops the program with one line naming the call that failed.
void check(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return;
  std::fprintf(stderr, "runtime_app: %s: %s\n", what, cudaGetErrorString(error));
  std::exit(1);
}

class Bookkeeping {
 public:
  float* allocate(size_t count) {
    void* pointer = nullptr;
    const size_t bytes = count * sizeof(float);
    check(cudaMalloc(&pointer, bytes), "cudaMalloc");
    live_[pointer] = bytes;
    live_bytes_ += bytes;
    if (live_bytes_ > peak_bytes_) peak_bytes_ = live_bytes_;
    ++allocations_;
    return static_cast<float*>(pointer);
  }
  void free(float* pointer) {
    check(cudaFree(pointer), "cudaFree");
    live_bytes_ -= live_.at(pointer);
    live_.erase(pointer);
    ++frees_;
  }
  void launched() {
    check(cudaGetLastError(), "kernel launch");
    ++launches_;
  }
  void print() const {
    std::fprintf(stderr,
                 "bookkeeping: {\"allocations\": %llu, \"frees\": %llu, \"peak_requested_bytes\": %llu, "
                 "\"requested_bytes_at_exit\": %llu, \"kernel_launches\": %llu}\n",
                 static_cast<unsigned long long>(allocations_), static_cast<unsigned long long>(frees_),
                 static_cast<unsigned long long>(peak_bytes_), static_cast<unsigned long long>(live_bytes_),
                 static_cast<unsigned long long>(launches_));
  }

 private:
  std::map<void*, size_t> live_;
  uint64_t live_bytes_ = 0, peak_bytes_ = 0, allocations_ = 0, frees_ = 0, launches_ = 0;
};

// Exact in float: small integers only, so every GPU computes the same bits.
__global__ void fill(float* out, size_t count, unsigned seed) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    out[i] = static_cast<float>((i * 2654435761u + seed) % 1024u);
  }
}

__global__ void accumulate(float* state, const float* a, const float* b, size_t count, size_t b_count) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < count; i += size_t{gridDim.x} * blockDim.x) {
    state[i] = __fadd_rn(state[i] * 0.5f, __fadd_rn(a[i], b[i % b_count]));
  }
}

uint64_t fnv1a(const std::vector<float>& values) {
  uint64_t hash = 1469598103934665603ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < values.size() * sizeof(float); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  return hash;
}

}  // namespace

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 20;
  if (iterations < 1) {
    std::fprintf(stderr, "runtime_app: iterations must be a positive number\n");
    return 2;
  }
  constexpr size_t kState = size_t{16} << 20;  // floats kept across iterations (64 MiB)
  constexpr int kBlocks = 1024, kThreads = 256;
  Bookkeeping book;
  float* state = book.allocate(kState);
  fill<<<kBlocks, kThreads>>>(state, kState, 7);
  book.launched();
  for (int it = 0; it < iterations; ++it) {
    // Sizes change with the iteration: 16 MiB to 112 MiB of temporaries, some not 2 MiB multiples.
    const size_t extra = size_t(it % 4) * (size_t{4} << 20) + size_t(it) * 1000;
    float* a = book.allocate(kState + extra);
    float* b = book.allocate((size_t{1} << 20) + size_t(it) * 37);
    fill<<<kBlocks, kThreads>>>(a, kState + extra, it);
    book.launched();
    fill<<<kBlocks, kThreads>>>(b, (size_t{1} << 20) + size_t(it) * 37, 3 * it + 1);
    book.launched();
    book.free(b);  // short-lived: written once, freed while a is still live
    float* c = book.allocate(size_t{2} << 20);
    fill<<<kBlocks, kThreads>>>(c, size_t{2} << 20, it + 11);
    book.launched();
    accumulate<<<kBlocks, kThreads>>>(state, a, c, kState, size_t{2} << 20);
    book.launched();
    book.free(a);
    book.free(c);
  }
  std::vector<float> result(kState);
  check(cudaMemcpy(result.data(), state, kState * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  book.free(state);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  book.print();
  std::printf("checksum: %016llx\n", static_cast<unsigned long long>(fnv1a(result)));
  return 0;
}
