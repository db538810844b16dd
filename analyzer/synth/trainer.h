// A small autograd framework that records one training iteration of a network: the network's
// forward layers are declared with their exact shapes and costs; backward (data and weight
// gradients, gradient accumulation) and an Adam step follow from them. Every kernel's duration
// comes from the roofline.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/synth/program.h"
#include "analyzer/synth/roofline.h"

namespace tidepool::synth {

// One forward operation.
struct Layer {
  std::string name;
  std::vector<TensorId> inputs;  // differentiable inputs (gradients flow back to activations)
  std::vector<TensorId> reads;   // inputs without gradients (token ids, labels)
  std::vector<TensorId> params;  // trainable weights it uses
  std::vector<TensorId> state;   // persistent buffers it reads and updates
  std::uint64_t output_bytes = 0;
  std::uint64_t extra_bytes = 0;  // a side output kept for backward (indices, statistics)
  bool save_inputs = true;        // backward reads the inputs (and reads)
  bool save_output = false;       // backward reads the output
  bool pass_gradient = false;     // backward hands the output's gradient to every input (add)
  double flops = 0;               // > 0: matrix work; backward does it again per input and for weights
};

class Trainer {
 public:
  explicit Trainer(Roofline roofline);

  std::uint64_t element_bytes() const;
  TensorId input(std::string name, std::uint64_t bytes);
  TensorId parameter(std::string name, std::uint64_t elements);
  TensorId state(std::string name, std::uint64_t bytes);
  TensorId forward(Layer layer);
  // Cross-entropy of `logits` against `labels`; the loss goes back to the host after the step.
  void loss(TensorId logits, TensorId labels);
  // Backward, the Adam step and the loss copy; the finished iteration.
  Program finish(std::string model);

 private:
  struct Recorded {
    Layer layer;
    TensorId output;
    TensorId extra;  // kNone when none
  };
  static constexpr TensorId kNone = ~TensorId{0};

  TensorId tensor(std::string name, std::uint64_t bytes, TensorRole role);
  void kernel(std::string name, std::vector<TensorId> tensors, double flops, bool matmul);
  void backward(const Recorded& r);
  void add_gradient(std::unordered_map<TensorId, TensorId>& grads, TensorId of, TensorId grad);
  void optimizer_step();

  Roofline roofline_;
  Program program_;
  std::vector<Recorded> recorded_;
  std::vector<TensorId> params_;
  std::unordered_map<TensorId, TensorId> grads_;  // activation or parameter -> its gradient
  TensorId loss_ = kNone;
};

}  // namespace tidepool::synth
