// The standard networks `tidepool synth` can train: resnet50, bert-large, gpt2-xl and vit-l,
// each built layer by layer from its architecture with exact tensor shapes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/synth/program.h"
#include "analyzer/synth/roofline.h"

namespace tidepool::synth {

struct NetworkOptions {
  std::string model;
  std::uint64_t batch = 0;  // 0: the model's default
  std::uint64_t seq = 0;    // 0: the model's default (transformers over text only)
  Roofline roofline;
  std::uint64_t layers = 0;  // 0: the model's depth; transformers can be made deeper or shallower
};

// std::invalid_argument for an unknown model, a sequence longer than the model's positions, or
// a depth given for resnet50.
Program build_network(const NetworkOptions& options);
const std::vector<std::string>& network_names();

// Each network, given resolved options (batch and seq set).
Program resnet50(const NetworkOptions& options);
Program bert_large(const NetworkOptions& options);
Program gpt2_xl(const NetworkOptions& options);
Program vit_large(const NetworkOptions& options);

}  // namespace tidepool::synth
