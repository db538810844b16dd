// The per-element math of train_mlp, shared by its kernels (train_mlp.cu) and their CPU twins
// (tools/simcuda/kernels/train_mlp.cpp), so both compute the same values up to the GPU's
// contraction of multiply-adds. Matrices are row-major; a layer's weight is [in_dim x out_dim].
// Every reduction has one fixed order, written down where it happens.
#pragma once

#include <math.h>
#include <stdint.h>

#include "tools/examples/common/hash.h"
#include "tools/examples/common/hd.h"

namespace mlp {

TP_HD float relu(float z) {
  return z > 0.0f ? z : 0.0f;
}

// Gradient through relu, given the gradient of its output and its input.
TP_HD float relu_backward(float grad_out, float z) {
  return z > 0.0f ? grad_out : 0.0f;
}

// One Adam step's constants; bias1 = 1 - beta1^t and bias2 = 1 - beta2^t for step t (from 1).
struct AdamStep {
  float learning_rate;
  float beta1;
  float beta2;
  float epsilon;
  float bias1;
  float bias2;
};

TP_HD void adam_update(float& weight, float& m, float& v, float grad, const AdamStep& s) {
  m = s.beta1 * m + (1.0f - s.beta1) * grad;
  v = s.beta2 * v + (1.0f - s.beta2) * (grad * grad);
  const float m_hat = m / s.bias1;
  const float v_hat = v / s.bias2;
  weight -= s.learning_rate * m_hat / (sqrtf(v_hat) + s.epsilon);
}

// Softmax cross-entropy of one row of logits against its label: writes the gradient
// (softmax - onehot) * grad_scale into grad and returns the row's loss. Sums run over c ascending.
TP_HD float softmax_cross_entropy_row(const float* logits, int label, int classes, float grad_scale,
                                      float* grad) {
  float max_logit = logits[0];
  for (int c = 1; c < classes; ++c) max_logit = fmaxf(max_logit, logits[c]);
  float sum = 0.0f;
  for (int c = 0; c < classes; ++c) sum += expf(logits[c] - max_logit);
  for (int c = 0; c < classes; ++c) {
    const float p = expf(logits[c] - max_logit) / sum;
    grad[c] = (p - (c == label ? 1.0f : 0.0f)) * grad_scale;
  }
  return logf(sum) - (logits[label] - max_logit);
}

// The synthetic data: sample s (= step * batch + row) has class sample_label and shows uniform
// noise plus a bump at the feature of its class; seeds for data are apart from those for weights.
constexpr uint64_t kDataSeedOffset = uint64_t{1} << 40;

TP_HD int sample_label(uint64_t seed, uint64_t sample, int classes) {
  return static_cast<int>(examples::hash3(seed + kDataSeedOffset, sample, 0) %
                          static_cast<uint32_t>(classes));
}

TP_HD float sample_feature(uint64_t seed, uint64_t sample, int feature, int label) {
  const float noise = examples::uniform_pm1(seed + kDataSeedOffset, sample, feature + 1);
  return 0.5f * noise + (feature == label ? 2.0f : 0.0f);
}

// The seed of layer `layer`'s initial weights, uniform in +-sqrt(6 / fan_in) (He uniform).
TP_HD uint64_t layer_seed(uint64_t seed, int layer) {
  return seed * 1024 + layer;
}
TP_HD float init_scale(int fan_in) {
  return sqrtf(6.0f / static_cast<float>(fan_in));
}

// Adam's constants for step `step` (from 1); bias corrections computed in double on the host.
inline AdamStep adam_step(int step) {
  AdamStep s{1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, 0.0f};
  s.bias1 = static_cast<float>(1.0 - pow(static_cast<double>(s.beta1), step));
  s.bias2 = static_cast<float>(1.0 - pow(static_cast<double>(s.beta2), step));
  return s;
}

}  // namespace mlp
