// One training run of train_mlp's network: `depth` fully connected layers of width x width (relu
// between them, softmax cross-entropy over `width` classes at the end), trained with Adam on
// synthetic data. Weights and Adam state live for the whole run; every activation and gradient is
// allocated when produced and freed right after its last use, as a framework without a caching
// allocator does. Kernels compute the first `compute_rows` rows of each batch; memory, copies and
// declared work are those of the full batch.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <vector>

#include "tools/examples/common/checksum.h"
#include "tools/examples/common/session.h"

namespace mlp {

struct Config {
  int batch;
  int width;
  int depth;
  int compute_rows;
  uint64_t seed;
};

class Trainer {
 public:
  Trainer(examples::Session& session, const Config& config);
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // Runs training step `step` (from 1) on the legacy default stream; returns its mean loss.
  float train_step(int step);
  // From the next step on, batches have `batch` rows of which the kernels compute `compute_rows`
  // (a program whose shapes change mid-run; the weights stay).
  void resize_batch(int batch, int compute_rows);
  // Adds every layer's weight and bias, in layer order, to the checksum.
  void add_parameters(examples::Checksum& checksum) const;

 private:
  struct Layer {
    CUdeviceptr weight, bias;
    CUdeviceptr weight_m, weight_v, bias_m, bias_v;  // Adam moments
  };
  struct Kernels {
    CUfunction init_uniform, linear_forward, relu_forward, softmax_cross_entropy, mean,
        linear_backward_input, linear_backward_weight, bias_backward, relu_backward, adam;
  };

  void upload_batch(int step, CUdeviceptr x, CUdeviceptr labels);
  CUdeviceptr zeroed(size_t floats);
  size_t activation_bytes() const;

  examples::Session& session_;
  Config config_;
  Kernels kernels_;
  std::vector<Layer> layers_;
  std::vector<float> host_x_;  // the batch's inputs; rows past compute_rows stay zero
  std::vector<int32_t> host_labels_;
};

}  // namespace mlp
