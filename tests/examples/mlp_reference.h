// A plain CPU reference of train_mlp's training, written as the kernels are (one output element at
// a time, the same summation order) with naive loops, independent of simcuda and the driver: the
// example run on simcuda must reproduce its loss and checksum bit for bit.
#pragma once

#include <cstdint>

namespace examples_test {

struct MlpSetup {
  int batch, width, depth, steps, compute_rows;
  uint64_t seed;
};

struct MlpOutcome {
  float final_loss;
  uint64_t checksum;  // FNV-1a 64 over every layer's weight, then bias, in layer order
};

MlpOutcome train_mlp_reference(const MlpSetup& setup);

}  // namespace examples_test
