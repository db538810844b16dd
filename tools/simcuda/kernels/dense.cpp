// Blocked, vectorized dense-layer products (see dense.h), shared out over threads by ranges of
// outputs (parallel_for). The range functions are compiled once per instruction set
// (SIMCUDA_VECTOR_CLONES); their helpers are forced inline so that they are too. Lanes of a vector
// are neighbouring output elements; a register tile holds a few rows of them while their terms are
// added in order, and the remainders that fill no vector run as scalar code with the same order.
#include "tools/simcuda/kernels/dense.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "simcuda/kernel.h"
#include "tools/simcuda/kernels/simd.h"

namespace simcuda::twins {
namespace {

using simd::Floats;
using simd::kLanes;

#define SIMCUDA_INLINE [[gnu::always_inline]] inline

constexpr int64_t kGrainWork = 1 << 18;  // multiply-adds worth a thread of their own
constexpr int kRowBlock = 4;             // rows of a register tile
constexpr int kDepthBlock = 16;  // forward: terms added to a register tile before it goes back to z
constexpr int kPanel = 2;        // backward input: vectors of outputs per panel of transposed w

size_t at(long long row, long long width, long long column) {
  return static_cast<size_t>(row * width + column);
}

// Outputs per thread for kGrainWork multiply-adds when each output takes `terms` of them, rounded
// up to a multiple of `multiple`.
int64_t grain_for(int64_t terms, int64_t multiple) {
  const int64_t outputs = kGrainWork / std::max<int64_t>(terms, 1) + 1;
  return (outputs + multiple - 1) / multiple * multiple;
}

// Runs body.template operator()<R>() for the row count R = min(kRowBlock, left) (left >= 1).
template <class Body>
SIMCUDA_INLINE void with_row_block(int left, Body&& body) {
  switch (std::min(kRowBlock, left)) {
    case 4:
      body.template operator()<4>();
      break;
    case 3:
      body.template operator()<3>();
      break;
    case 2:
      body.template operator()<2>();
      break;
    default:
      body.template operator()<1>();
      break;
  }
}

// ---- forward: z[r][c] = (sum over k of x[r][k] * w[k][c]) + b[c] ----

// Adds the terms k in [k0, k1) to z's rows [r0, r0 + R), columns [c, c + V * kLanes); `first`: the
// sums start here from 0, `last`: b is added and they are done.
template <int R, int V>
SIMCUDA_INLINE void forward_tile(const float* x, const float* w, const float* b, float* z, int r0,
                                 int c, int k0, int k1, int in_dim, int out_dim, bool first,
                                 bool last) {
  Floats acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      acc[r][v] = first ? Floats{} : simd::load(z + at(r0 + r, out_dim, c + v * kLanes));
  for (int k = k0; k < k1; ++k) {
    Floats w_k[V];
    for (int v = 0; v < V; ++v) w_k[v] = simd::load(w + at(k, out_dim, c + v * kLanes));
    for (int r = 0; r < R; ++r) {
      const float x_rk = x[at(r0 + r, in_dim, k)];
      for (int v = 0; v < V; ++v) acc[r][v] += x_rk * w_k[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v)
      simd::store(z + at(r0 + r, out_dim, c + v * kLanes),
                  last ? acc[r][v] + simd::load(b + c + v * kLanes) : acc[r][v]);
}

// The columns [c_begin, c_end) of rows [r0, r0 + R).
template <int R>
SIMCUDA_INLINE void forward_rows(const float* x, const float* w, const float* b, float* z, int r0,
                                 int c_begin, int c_end, int k0, int k1, int in_dim, int out_dim,
                                 bool first, bool last) {
  int c = c_begin;
  for (; c + 2 * kLanes <= c_end; c += 2 * kLanes)
    forward_tile<R, 2>(x, w, b, z, r0, c, k0, k1, in_dim, out_dim, first, last);
  for (; c + kLanes <= c_end; c += kLanes)
    forward_tile<R, 1>(x, w, b, z, r0, c, k0, k1, in_dim, out_dim, first, last);
  for (; c < c_end; ++c) {
    for (int r = r0; r < r0 + R; ++r) {
      float acc = first ? 0.0f : z[at(r, out_dim, c)];
      for (int k = k0; k < k1; ++k) acc += x[at(r, in_dim, k)] * w[at(k, out_dim, c)];
      z[at(r, out_dim, c)] = last ? acc + b[c] : acc;
    }
  }
}

// ---- backward input: dx[r][k] = sum over c of dz[r][c] * w[k][c] ----

// panel[c][j] = w[k0 + j][c] for j < V * kLanes: a strip of w's rows, transposed so that the
// outputs dx[r][k0 + j] are lanes.
template <int V>
SIMCUDA_INLINE void transpose_strip(const float* w, int k0, int out_dim, float* panel) {
  constexpr int width = V * kLanes;
  for (int v = 0; v < V; ++v) {
    const float* strip = w + at(k0 + v * kLanes, out_dim, 0);
    int c = 0;
    for (; c + kLanes <= out_dim; c += kLanes) {
      Floats block[kLanes];
      for (int j = 0; j < kLanes; ++j) block[j] = simd::load(strip + at(j, out_dim, c));
      simd::transpose(block);
      for (int i = 0; i < kLanes; ++i) simd::store(panel + at(c + i, width, v * kLanes), block[i]);
    }
    for (; c < out_dim; ++c)
      for (int j = 0; j < kLanes; ++j)
        panel[at(c, width, v * kLanes + j)] = strip[at(j, out_dim, c)];
  }
}

template <int R, int V>
SIMCUDA_INLINE void backward_input_tile(const float* dz, const float* panel, float* dx, int r0,
                                        int k0, int in_dim, int out_dim) {
  constexpr int width = V * kLanes;
  Floats acc[R][V] = {};
  for (int c = 0; c < out_dim; ++c) {
    Floats w_c[V];
    for (int v = 0; v < V; ++v) w_c[v] = simd::load(panel + at(c, width, v * kLanes));
    for (int r = 0; r < R; ++r) {
      const float dz_rc = dz[at(r0 + r, out_dim, c)];
      for (int v = 0; v < V; ++v) acc[r][v] += dz_rc * w_c[v];
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) simd::store(dx + at(r0 + r, in_dim, k0 + v * kLanes), acc[r][v]);
}

template <int V>
SIMCUDA_INLINE void backward_input_strip(const float* dz, const float* w, float* dx, int rows,
                                         int k0, int in_dim, int out_dim, float* panel) {
  transpose_strip<V>(w, k0, out_dim, panel);
  for (int r0 = 0; r0 < rows; r0 += kRowBlock) {
    with_row_block(rows - r0, [&]<int R>() {
      backward_input_tile<R, V>(dz, panel, dx, r0, k0, in_dim, out_dim);
    });
  }
}

// ---- backward weight: dw[k][c] = sum over r of x[r][k] * dz[r][c] ----

template <int V>
SIMCUDA_INLINE void backward_weight_tile(const float* x, const float* dz, float* dw_k, int rows,
                                         int k, int c, int in_dim, int out_dim) {
  Floats acc[V] = {};
  for (int r = 0; r < rows; ++r) {
    const float x_rk = x[at(r, in_dim, k)];
    for (int v = 0; v < V; ++v) acc[v] += x_rk * simd::load(dz + at(r, out_dim, c + v * kLanes));
  }
  for (int v = 0; v < V; ++v) simd::store_streaming(dw_k + c + v * kLanes, acc[v]);
}

// Columns [c_begin, c_end) of every row of z.
SIMCUDA_VECTOR_CLONES
void forward_columns(const float* x, const float* w, const float* b, float* z, int rows, int in_dim,
                     int out_dim, int c_begin, int c_end) {
  // Blocks of kDepthBlock terms, each added to every row; one pass (adding b) when in_dim <= 0.
  for (int k0 = 0;; k0 += kDepthBlock) {
    const int k1 = std::min(in_dim, k0 + kDepthBlock);
    const bool first = k0 == 0, last = k1 >= in_dim;
    for (int r0 = 0; r0 < rows; r0 += kRowBlock) {
      with_row_block(rows - r0, [&]<int R>() {
        forward_rows<R>(x, w, b, z, r0, c_begin, c_end, k0, k1, in_dim, out_dim, first, last);
      });
    }
    if (last) break;
  }
}

// Columns [k_begin, k_end) of every row of dx (k_begin a multiple of the strip width).
SIMCUDA_VECTOR_CLONES
void backward_input_columns(const float* dz, const float* w, float* dx, int rows, int in_dim,
                            int out_dim, int k_begin, int k_end) {
  std::vector<float> panel(static_cast<size_t>(out_dim) * kPanel * kLanes);
  int k0 = k_begin;
  for (; k0 + kPanel * kLanes <= k_end; k0 += kPanel * kLanes)
    backward_input_strip<kPanel>(dz, w, dx, rows, k0, in_dim, out_dim, panel.data());
  for (; k0 + kLanes <= k_end; k0 += kLanes)
    backward_input_strip<1>(dz, w, dx, rows, k0, in_dim, out_dim, panel.data());
  for (int r = 0; r < rows; ++r) {
    for (int k = k0; k < k_end; ++k) {
      float acc = 0.0f;
      for (int c = 0; c < out_dim; ++c) acc += dz[at(r, out_dim, c)] * w[at(k, out_dim, c)];
      dx[at(r, in_dim, k)] = acc;
    }
  }
}

// Rows [k_begin, k_end) of dw.
SIMCUDA_VECTOR_CLONES
void backward_weight_rows(const float* x, const float* dz, float* dw, int rows, int in_dim,
                          int out_dim, int k_begin, int k_end) {
  for (int k = k_begin; k < k_end; ++k) {
    float* dw_k = dw + at(k, out_dim, 0);
    int c = 0;
    for (; c + 4 * kLanes <= out_dim; c += 4 * kLanes)
      backward_weight_tile<4>(x, dz, dw_k, rows, k, c, in_dim, out_dim);
    for (; c + kLanes <= out_dim; c += kLanes)
      backward_weight_tile<1>(x, dz, dw_k, rows, k, c, in_dim, out_dim);
    for (; c < out_dim; ++c) {
      float acc = 0.0f;
      for (int r = 0; r < rows; ++r) acc += x[at(r, in_dim, k)] * dz[at(r, out_dim, c)];
      dw_k[c] = acc;
    }
  }
  simd::streaming_done();
}

}  // namespace

void dense_forward(const float* x, const float* w, const float* b, float* z, int rows, int in_dim,
                   int out_dim) {
  if (rows <= 0) return;
  const int64_t grain = grain_for(int64_t{rows} * std::max(in_dim, 1), 2 * kLanes);
  parallel_for(out_dim, grain, [&](int64_t begin, int64_t end) {
    forward_columns(x, w, b, z, rows, in_dim, out_dim, static_cast<int>(begin),
                    static_cast<int>(end));
  });
}

void dense_backward_input(const float* dz, const float* w, float* dx, int rows, int in_dim,
                          int out_dim) {
  if (rows <= 0) return;
  const int depth = std::max(out_dim, 0);
  const int64_t grain = grain_for(int64_t{rows} * depth, kPanel * kLanes);
  parallel_for(in_dim, grain, [&](int64_t begin, int64_t end) {
    backward_input_columns(dz, w, dx, rows, in_dim, depth, static_cast<int>(begin),
                           static_cast<int>(end));
  });
}

void dense_backward_weight(const float* x, const float* dz, float* dw, int rows, int in_dim,
                           int out_dim) {
  const int64_t grain = grain_for(int64_t{std::max(rows, 0)} * std::max(out_dim, 0), 1);
  parallel_for(in_dim, grain, [&](int64_t begin, int64_t end) {
    backward_weight_rows(x, dz, dw, std::max(rows, 0), in_dim, out_dim, static_cast<int>(begin),
                         static_cast<int>(end));
  });
}

}  // namespace simcuda::twins
