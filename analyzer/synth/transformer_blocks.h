// The building blocks the transformer networks share: linear layers, layer norm, GELU, eager
// multi-head attention (scores and probabilities materialized, as the original implementations
// do), the MLP, and pre-LN or post-LN blocks, over activations of shape [batch, tokens, width].
#pragma once

#include <cstdint>
#include <string>

#include "analyzer/synth/trainer.h"

namespace tidepool::synth {

class TransformerBlocks {
 public:
  TransformerBlocks(Trainer& t, std::uint64_t batch, std::uint64_t tokens)
      : t_(t), b_(batch), s_(tokens), e_(t.element_bytes()) {}

  std::uint64_t rows() const { return b_ * s_; }
  std::uint64_t bytes(std::uint64_t rows, std::uint64_t width) const { return rows * width * e_; }

  // x [rows, in] -> [rows, out], with a bias unless told otherwise; `weight` given: tied weights.
  TensorId linear(const std::string& name, TensorId x, std::uint64_t rows, std::uint64_t in,
                  std::uint64_t out, bool bias = true, TensorId weight = kNoTensor);
  TensorId layer_norm(const std::string& name, TensorId x, std::uint64_t rows, std::uint64_t width);
  TensorId gelu(const std::string& name, TensorId x, std::uint64_t rows, std::uint64_t width);
  TensorId add(const std::string& name, TensorId a, TensorId b, std::uint64_t rows, std::uint64_t width);
  TensorId attention(const std::string& name, TensorId x, std::uint64_t width, std::uint64_t heads);
  TensorId mlp(const std::string& name, TensorId x, std::uint64_t width, std::uint64_t hidden);
  // GPT-2 and ViT: x + attn(ln1(x)), then + mlp(ln2(.)). BERT: ln1(x + attn(x)), ln2(. + mlp(.)).
  TensorId block(const std::string& name, TensorId x, std::uint64_t width, std::uint64_t heads,
                 std::uint64_t hidden, bool pre_norm);

  static constexpr TensorId kNoTensor = ~TensorId{0};

 private:
  Trainer& t_;
  std::uint64_t b_, s_, e_;
};

}  // namespace tidepool::synth
