// One synthetic training iteration as a framework runs it: tensors, and the kernels and copies
// that touch them in issue order. The trace writer turns it into allocations (each tensor just
// before its first use), launches, copies and frees (each tensor right after its last use).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tidepool::synth {

using TensorId = std::uint32_t;

enum class TensorRole : std::uint8_t {
  input,            // copied from the host at the start of each iteration
  activation,       // made by forward, freed after its last use (often in backward)
  gradient,         // made by backward, freed after its last use (the optimizer, for weights)
  parameter,        // trainable weights: persistent
  optimizer_state,  // Adam moments and fp32 master weights: persistent
  buffer,           // persistent, not trained (batch-norm running statistics)
};

constexpr bool is_persistent(TensorRole role) {
  return role == TensorRole::parameter || role == TensorRole::optimizer_state ||
         role == TensorRole::buffer;
}

struct Tensor {
  std::string name;
  std::uint64_t bytes = 0;
  TensorRole role = TensorRole::activation;
};

enum class StepKind : std::uint8_t { kernel, copy_to_device, copy_to_host };

struct Step {
  StepKind kind = StepKind::kernel;
  std::string name;
  std::vector<TensorId> tensors;  // kernels: every tensor touched; copies: the one device tensor
  double seconds = 0;
  double flops = 0;
};

struct Program {
  std::string model;
  std::vector<Tensor> tensors;
  std::vector<Step> steps;        // one iteration
  std::uint64_t parameters = 0;   // trainable parameters (elements)
};

}  // namespace tidepool::synth
