// Transformer building blocks with their exact shapes and FLOPs.
#include "analyzer/synth/transformer_blocks.h"

namespace tidepool::synth {

TensorId TransformerBlocks::linear(const std::string& name, TensorId x, std::uint64_t rows,
                                   std::uint64_t in, std::uint64_t out, bool bias, TensorId weight) {
  Layer layer{.name = name, .inputs = {x}, .output_bytes = bytes(rows, out),
              .flops = 2.0 * static_cast<double>(rows * in * out)};
  layer.params.push_back(weight != kNoTensor ? weight : t_.parameter(name + ".weight", in * out));
  if (bias) layer.params.push_back(t_.parameter(name + ".bias", out));
  return t_.forward(std::move(layer));
}

TensorId TransformerBlocks::layer_norm(const std::string& name, TensorId x, std::uint64_t rows,
                                       std::uint64_t width) {
  const TensorId gamma = t_.parameter(name + ".weight", width);
  const TensorId beta = t_.parameter(name + ".bias", width);
  return t_.forward({.name = name, .inputs = {x}, .params = {gamma, beta},
                     .output_bytes = bytes(rows, width), .extra_bytes = rows * 2 * 4});  // mean, rstd
}

TensorId TransformerBlocks::gelu(const std::string& name, TensorId x, std::uint64_t rows,
                                 std::uint64_t width) {
  return t_.forward({.name = name, .inputs = {x}, .output_bytes = bytes(rows, width)});
}

TensorId TransformerBlocks::add(const std::string& name, TensorId a, TensorId b,
                                std::uint64_t rows, std::uint64_t width) {
  return t_.forward({.name = name, .inputs = {a, b}, .output_bytes = bytes(rows, width),
                     .save_inputs = false, .pass_gradient = true});
}

TensorId TransformerBlocks::attention(const std::string& name, TensorId x, std::uint64_t width,
                                      std::uint64_t heads) {
  const std::uint64_t n = rows();
  const TensorId qkv = linear(name + ".qkv", x, n, width, 3 * width);
  const double score_flops = 2.0 * static_cast<double>(b_ * s_ * s_ * width);
  const std::uint64_t score_bytes = b_ * heads * s_ * s_ * e_;
  const TensorId scores = t_.forward({.name = name + ".scores", .inputs = {qkv},
                                      .output_bytes = score_bytes, .flops = score_flops});
  const TensorId probs = t_.forward({.name = name + ".softmax", .inputs = {scores},
                                     .output_bytes = score_bytes, .save_inputs = false,
                                     .save_output = true});
  const TensorId context = t_.forward({.name = name + ".context", .inputs = {probs, qkv},
                                       .output_bytes = bytes(n, width), .flops = score_flops});
  return linear(name + ".proj", context, n, width, width);
}

TensorId TransformerBlocks::mlp(const std::string& name, TensorId x, std::uint64_t width,
                                std::uint64_t hidden) {
  const TensorId up = linear(name + ".fc", x, rows(), width, hidden);
  const TensorId act = gelu(name + ".gelu", up, rows(), hidden);
  return linear(name + ".proj", act, rows(), hidden, width);
}

TensorId TransformerBlocks::block(const std::string& name, TensorId x, std::uint64_t width,
                                  std::uint64_t heads, std::uint64_t hidden, bool pre_norm) {
  const std::uint64_t n = rows();
  if (pre_norm) {
    const TensorId a = attention(name + ".attn", layer_norm(name + ".ln1", x, n, width), width, heads);
    const TensorId h = add(name + ".add1", x, a, n, width);
    const TensorId m = mlp(name + ".mlp", layer_norm(name + ".ln2", h, n, width), width, hidden);
    return add(name + ".add2", h, m, n, width);
  }
  const TensorId a = attention(name + ".attn", x, width, heads);
  const TensorId h = layer_norm(name + ".ln1", add(name + ".add1", x, a, n, width), n, width);
  const TensorId m = mlp(name + ".mlp", h, width, hidden);
  return layer_norm(name + ".ln2", add(name + ".add2", h, m, n, width), n, width);
}

}  // namespace tidepool::synth
