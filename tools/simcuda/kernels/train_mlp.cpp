// CPU twins of train_mlp's kernels (tools/examples/train_mlp/train_mlp.cu). Each computes the same
// first `compute_rows` rows with the same per-element summation order as its kernel, and declares
// the work of the full batch (`rows`) to the simulated clock. The dense products are blocked and
// vectorized (dense.h); every output element still accumulates its terms in the kernel's order.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tools/examples/common/hash.h"
#include "tools/examples/train_mlp/mlp_math.h"
#include "tools/simcuda/kernels/dense.h"
#include "tools/simcuda/kernels/simd.h"
#include "tools/simcuda/kernels/twin.h"

namespace {

using simcuda::LaunchShape;
using simcuda::Work;

constexpr double kFloat = sizeof(float);
constexpr int64_t kElementGrain = 1 << 18;  // elements of an element-wise twin worth a thread

size_t at(long long row, long long width, long long column) {
  return static_cast<size_t>(row * width + column);
}

Work init_uniform(const LaunchShape&, float* out, long long n, unsigned long long seed,
                  float scale) {
  for (long long i = 0; i < n; ++i) out[i] = scale * examples::uniform_pm1(seed, 0, i);
  return {10.0 * n, kFloat * n};
}

Work matmul_work(int rows, int in_dim, int out_dim) {
  const double r = rows, in = in_dim, out = out_dim;
  return {2.0 * r * in * out, kFloat * (r * in + in * out + r * out)};
}

// z[r][c] = (sum over k ascending of x[r][k] * w[k][c]) + b[c].
Work linear_forward(const LaunchShape&, const float* x, const float* w, const float* b, float* z,
                    int rows, int compute_rows, int in_dim, int out_dim) {
  simcuda::twins::dense_forward(x, w, b, z, compute_rows, in_dim, out_dim);
  Work work = matmul_work(rows, in_dim, out_dim);
  work.bytes += kFloat * out_dim;
  return work;
}

Work relu_forward(const LaunchShape&, const float* z, float* h, int rows, int compute_rows,
                  int dim) {
  const size_t n = at(compute_rows, dim, 0);
  for (size_t i = 0; i < n; ++i) h[i] = mlp::relu(z[i]);
  const double full = static_cast<double>(rows) * dim;
  return {full, 2 * kFloat * full};
}

Work softmax_cross_entropy(const LaunchShape&, const float* logits, const int* labels, float* grad,
                           float* row_loss, int rows, int compute_rows, int classes) {
  for (int r = 0; r < compute_rows; ++r) {
    row_loss[r] = mlp::softmax_cross_entropy_row(logits + at(r, classes, 0), labels[r], classes,
                                                 1.0f / compute_rows, grad + at(r, classes, 0));
  }
  const double full = static_cast<double>(rows) * classes;
  return {6.0 * full, kFloat * (2.0 * full + 2.0 * rows)};
}

Work mean(const LaunchShape&, const float* values, float* out, int rows, int compute_rows) {
  float sum = 0.0f;
  for (int r = 0; r < compute_rows; ++r) sum += values[r];
  out[0] = sum / compute_rows;
  return {static_cast<double>(rows), kFloat * (rows + 1.0)};
}

// dx[r][k] = sum over c ascending of dz[r][c] * w[k][c].
Work linear_backward_input(const LaunchShape&, const float* dz, const float* w, float* dx, int rows,
                           int compute_rows, int in_dim, int out_dim) {
  simcuda::twins::dense_backward_input(dz, w, dx, compute_rows, in_dim, out_dim);
  return matmul_work(rows, in_dim, out_dim);
}

// dw[k][c] = sum over r ascending of x[r][k] * dz[r][c].
Work linear_backward_weight(const LaunchShape&, const float* x, const float* dz, float* dw,
                            int rows, int compute_rows, int in_dim, int out_dim) {
  simcuda::twins::dense_backward_weight(x, dz, dw, compute_rows, in_dim, out_dim);
  return matmul_work(rows, in_dim, out_dim);
}

// db[c] = sum over r ascending of dz[r][c].
Work bias_backward(const LaunchShape&, const float* dz, float* db, int rows, int compute_rows,
                   int dim) {
  std::fill(db, db + dim, 0.0f);
  for (int r = 0; r < compute_rows; ++r) {
    for (int c = 0; c < dim; ++c) db[c] += dz[at(r, dim, c)];
  }
  const double full = static_cast<double>(rows) * dim;
  return {full, kFloat * (full + dim)};
}

Work relu_backward(const LaunchShape&, const float* dh, const float* z, float* dz, int rows,
                   int compute_rows, int dim) {
  const size_t n = at(compute_rows, dim, 0);
  for (size_t i = 0; i < n; ++i) dz[i] = mlp::relu_backward(dh[i], z[i]);
  const double full = static_cast<double>(rows) * dim;
  return {full, 3 * kFloat * full};
}

// Asks for the cache line a page past p, to be read (Write = 0) or written (1); an address only:
// it may lie past the array.
template <int Write>
[[gnu::always_inline]] inline void prefetch_ahead(const float* p) {
  constexpr uintptr_t ahead = 4096;
  __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(p) + ahead), Write);
}

// Element-wise, a cache line at a time; fetching a page ahead in each of the four streams keeps
// more memory requests in flight than the hardware prefetcher alone (about 10% faster here).
SIMCUDA_VECTOR_CLONES
void adam_update_all(float* weight, float* m, float* v, const float* grad,
                     const mlp::AdamStep& step, long long n) {
  constexpr long long line = 16;
  long long i0 = 0;
  for (; i0 + line <= n; i0 += line) {
    prefetch_ahead<1>(weight + i0);
    prefetch_ahead<1>(m + i0);
    prefetch_ahead<1>(v + i0);
    prefetch_ahead<0>(grad + i0);
    for (long long i = i0; i < i0 + line; ++i)
      mlp::adam_update(weight[i], m[i], v[i], grad[i], step);
  }
  for (long long i = i0; i < n; ++i) mlp::adam_update(weight[i], m[i], v[i], grad[i], step);
}

Work adam(const LaunchShape&, float* weight, float* m, float* v, const float* grad,
          mlp::AdamStep step, long long n) {
  simcuda::parallel_for(n, kElementGrain, [&](int64_t begin, int64_t end) {
    adam_update_all(weight + begin, m + begin, v + begin, grad + begin, step, end - begin);
  });
  return {12.0 * n, 7 * kFloat * n};
}

}  // namespace

SIMCUDA_TWIN(mlp_init_uniform, init_uniform);
SIMCUDA_TWIN(mlp_linear_forward, linear_forward);
SIMCUDA_TWIN(mlp_relu_forward, relu_forward);
SIMCUDA_TWIN(mlp_softmax_cross_entropy, softmax_cross_entropy);
SIMCUDA_TWIN(mlp_mean, mean);
SIMCUDA_TWIN(mlp_linear_backward_input, linear_backward_input);
SIMCUDA_TWIN(mlp_linear_backward_weight, linear_backward_weight);
SIMCUDA_TWIN(mlp_bias_backward, bias_backward);
SIMCUDA_TWIN(mlp_relu_backward, relu_backward);
SIMCUDA_TWIN(mlp_adam, adam);
