// The plain CPU reference of train_mlp (see mlp_reference.h).
#include "tests/examples/mlp_reference.h"

#include <cstring>
#include <vector>

#include "tools/examples/common/hash.h"
#include "tools/examples/train_mlp/mlp_math.h"

namespace examples_test {
namespace {

using Matrix = std::vector<float>;  // row-major

struct Layer {
  Matrix weight, bias, weight_m, weight_v, bias_m, bias_v;
};

uint64_t fnv1a(uint64_t state, const Matrix& values) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (size_t i = 0; i < values.size() * sizeof(float); ++i) {
    state = (state ^ bytes[i]) * 0x100000001b3ull;
  }
  return state;
}

}  // namespace

MlpOutcome train_mlp_reference(const MlpSetup& s) {
  const int n = s.compute_rows, w = s.width;
  const auto at = [w](int row, int column) { return static_cast<size_t>(row) * w + column; };
  std::vector<Layer> layers(s.depth);
  for (int l = 0; l < s.depth; ++l) {
    Layer& layer = layers[l];
    layer.weight.resize(at(w, 0));
    const float scale = mlp::init_scale(w);
    for (size_t i = 0; i < layer.weight.size(); ++i) {
      layer.weight[i] = scale * examples::uniform_pm1(mlp::layer_seed(s.seed, l), 0, i);
    }
    layer.weight_m = layer.weight_v = Matrix(layer.weight.size(), 0.0f);
    layer.bias = layer.bias_m = layer.bias_v = Matrix(w, 0.0f);
  }

  float loss = 0.0f;
  for (int step = 1; step <= s.steps; ++step) {
    std::vector<int> labels(n);
    std::vector<Matrix> h(s.depth, Matrix(at(n, 0))), z(s.depth, Matrix(at(n, 0)));
    for (int r = 0; r < n; ++r) {
      const uint64_t sample = static_cast<uint64_t>(step) * s.batch + r;
      labels[r] = mlp::sample_label(s.seed, sample, w);
      for (int c = 0; c < w; ++c)
        h[0][at(r, c)] = mlp::sample_feature(s.seed, sample, c, labels[r]);
    }
    for (int l = 0; l < s.depth; ++l) {
      for (int r = 0; r < n; ++r) {
        for (int c = 0; c < w; ++c) {
          float acc = 0.0f;
          for (int k = 0; k < w; ++k) acc += h[l][at(r, k)] * layers[l].weight[at(k, c)];
          z[l][at(r, c)] = acc + layers[l].bias[c];
        }
      }
      if (l + 1 < s.depth) {
        for (size_t i = 0; i < z[l].size(); ++i) h[l + 1][i] = mlp::relu(z[l][i]);
      }
    }
    Matrix grad(at(n, 0));
    float loss_sum = 0.0f;
    for (int r = 0; r < n; ++r) {
      loss_sum += mlp::softmax_cross_entropy_row(&z[s.depth - 1][at(r, 0)], labels[r], w, 1.0f / n,
                                                 &grad[at(r, 0)]);
    }
    loss = loss_sum / n;

    std::vector<Matrix> weight_grad(s.depth, Matrix(at(w, 0))), bias_grad(s.depth, Matrix(w));
    for (int l = s.depth - 1; l >= 0; --l) {
      for (int k = 0; k < w; ++k) {
        for (int c = 0; c < w; ++c) {
          float acc = 0.0f;
          for (int r = 0; r < n; ++r) acc += h[l][at(r, k)] * grad[at(r, c)];
          weight_grad[l][at(k, c)] = acc;
        }
      }
      for (int c = 0; c < w; ++c) {
        float acc = 0.0f;
        for (int r = 0; r < n; ++r) acc += grad[at(r, c)];
        bias_grad[l][c] = acc;
      }
      if (l == 0) break;
      Matrix grad_h(at(n, 0));
      for (int r = 0; r < n; ++r) {
        for (int k = 0; k < w; ++k) {
          float acc = 0.0f;
          for (int c = 0; c < w; ++c) acc += grad[at(r, c)] * layers[l].weight[at(k, c)];
          grad_h[at(r, k)] = acc;
        }
      }
      for (size_t i = 0; i < grad.size(); ++i) grad[i] = mlp::relu_backward(grad_h[i], z[l - 1][i]);
    }
    const mlp::AdamStep adam = mlp::adam_step(step);
    for (int l = 0; l < s.depth; ++l) {
      Layer& layer = layers[l];
      for (size_t i = 0; i < layer.weight.size(); ++i) {
        mlp::adam_update(layer.weight[i], layer.weight_m[i], layer.weight_v[i], weight_grad[l][i],
                         adam);
      }
      for (int c = 0; c < w; ++c) {
        mlp::adam_update(layer.bias[c], layer.bias_m[c], layer.bias_v[c], bias_grad[l][c], adam);
      }
    }
  }

  uint64_t checksum = 0xcbf29ce484222325ull;
  for (const Layer& layer : layers) checksum = fnv1a(fnv1a(checksum, layer.weight), layer.bias);
  return {loss, checksum};
}

}  // namespace examples_test
