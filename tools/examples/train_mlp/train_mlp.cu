// The kernels of train_mlp. Each computes only the first `compute_rows` rows of the batch (the same
// rows the CPU twins compute); `rows` is the full batch, whose work the twins declare to simcuda.
// Reductions run sequentially in one fixed order per output element, so results are deterministic.
#include <stdint.h>

#include "tools/examples/common/hash.h"
#include "tools/examples/train_mlp/mlp_math.h"

// out[i] = scale * uniform[-1, 1) from (seed, i).
extern "C" __global__ void mlp_init_uniform(float* out, long long n, unsigned long long seed,
                                            float scale) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = scale * examples::uniform_pm1(seed, 0, i);
}

// z[r][c] = (sum over k ascending of x[r][k] * w[k][c]) + b[c].
extern "C" __global__ void mlp_linear_forward(const float* x, const float* w, const float* b,
                                              float* z, int rows, int compute_rows, int in_dim,
                                              int out_dim) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= compute_rows || c >= out_dim) return;
  float acc = 0.0f;
  for (int k = 0; k < in_dim; ++k)
    acc += x[static_cast<long long>(r) * in_dim + k] * w[static_cast<long long>(k) * out_dim + c];
  z[static_cast<long long>(r) * out_dim + c] = acc + b[c];
}

extern "C" __global__ void mlp_relu_forward(const float* z, float* h, int rows, int compute_rows,
                                            int dim) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < static_cast<long long>(compute_rows) * dim) h[i] = mlp::relu(z[i]);
}

// One thread per row: row_loss[r] and grad[r][:] = (softmax - onehot) / compute_rows.
extern "C" __global__ void mlp_softmax_cross_entropy(const float* logits, const int* labels,
                                                     float* grad, float* row_loss, int rows,
                                                     int compute_rows, int classes) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= compute_rows) return;
  const long long offset = static_cast<long long>(r) * classes;
  row_loss[r] = mlp::softmax_cross_entropy_row(logits + offset, labels[r], classes,
                                               1.0f / compute_rows, grad + offset);
}

// out[0] = (sum over r ascending of values[r], r < compute_rows) / compute_rows; one thread.
extern "C" __global__ void mlp_mean(const float* values, float* out, int rows, int compute_rows) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int r = 0; r < compute_rows; ++r) sum += values[r];
  out[0] = sum / compute_rows;
}

// dx[r][k] = sum over c ascending of dz[r][c] * w[k][c].
extern "C" __global__ void mlp_linear_backward_input(const float* dz, const float* w, float* dx,
                                                     int rows, int compute_rows, int in_dim,
                                                     int out_dim) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= compute_rows || k >= in_dim) return;
  float acc = 0.0f;
  for (int c = 0; c < out_dim; ++c)
    acc += dz[static_cast<long long>(r) * out_dim + c] * w[static_cast<long long>(k) * out_dim + c];
  dx[static_cast<long long>(r) * in_dim + k] = acc;
}

// dw[k][c] = sum over r ascending (r < compute_rows) of x[r][k] * dz[r][c].
extern "C" __global__ void mlp_linear_backward_weight(const float* x, const float* dz, float* dw,
                                                      int rows, int compute_rows, int in_dim,
                                                      int out_dim) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int k = blockIdx.y * blockDim.y + threadIdx.y;
  if (k >= in_dim || c >= out_dim) return;
  float acc = 0.0f;
  for (int r = 0; r < compute_rows; ++r)
    acc += x[static_cast<long long>(r) * in_dim + k] * dz[static_cast<long long>(r) * out_dim + c];
  dw[static_cast<long long>(k) * out_dim + c] = acc;
}

// db[c] = sum over r ascending (r < compute_rows) of dz[r][c].
extern "C" __global__ void mlp_bias_backward(const float* dz, float* db, int rows, int compute_rows,
                                             int dim) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= dim) return;
  float acc = 0.0f;
  for (int r = 0; r < compute_rows; ++r) acc += dz[static_cast<long long>(r) * dim + c];
  db[c] = acc;
}

extern "C" __global__ void mlp_relu_backward(const float* dh, const float* z, float* dz, int rows,
                                             int compute_rows, int dim) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < static_cast<long long>(compute_rows) * dim) dz[i] = mlp::relu_backward(dh[i], z[i]);
}

extern "C" __global__ void mlp_adam(float* weight, float* m, float* v, const float* grad,
                                    mlp::AdamStep step, long long n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) mlp::adam_update(weight[i], m[i], v[i], grad[i], step);
}
