// The three products of a dense layer as train_mlp's kernels define them, on the first `rows` rows
// of row-major matrices (x: rows x in_dim, w: in_dim x out_dim, z and dz: rows x out_dim). Every
// output element starts from 0.0f and adds its terms one at a time, in the order given below, as
// the GPU kernel and the plain CPU reference do (no fused multiply-adds): blocking and vectors only
// change which elements are computed side by side, so the results are the same bits. Outputs do
// not overlap inputs (on the GPU that would race).
#pragma once

namespace simcuda::twins {

// z[r][c] = (sum over k ascending of x[r][k] * w[k][c]) + b[c].
void dense_forward(const float* x, const float* w, const float* b, float* z, int rows, int in_dim,
                   int out_dim);

// dx[r][k] = sum over c ascending of dz[r][c] * w[k][c].
void dense_backward_input(const float* dz, const float* w, float* dx, int rows, int in_dim,
                          int out_dim);

// dw[k][c] = sum over r ascending of x[r][k] * dz[r][c], for every k < in_dim and c < out_dim.
void dense_backward_weight(const float* x, const float* dz, float* dw, int rows, int in_dim,
                           int out_dim);

}  // namespace simcuda::twins
