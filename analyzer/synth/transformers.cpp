// BERT-large (masked-LM pretraining), GPT-2 XL (causal LM, tied embeddings) and ViT-L/16
// (224x224 images, 1000 classes), built from TransformerBlocks.
#include <string>

#include "analyzer/synth/networks.h"
#include "analyzer/synth/transformer_blocks.h"

namespace tidepool::synth {
namespace {

// Token (and position) embedding lookups summed: [b*s] ids -> [b*s, width].
TensorId embed(Trainer& t, TransformerBlocks& blocks, const std::string& name, TensorId ids,
               TensorId table, std::uint64_t rows, std::uint64_t width) {
  return t.forward({.name = name, .reads = {ids}, .params = {table},
                    .output_bytes = blocks.bytes(rows, width)});
}

}  // namespace

Program bert_large(const NetworkOptions& o) {
  const std::uint64_t width = 1024, vocab = 30522;
  Trainer t(o.roofline);
  TransformerBlocks blocks(t, o.batch, o.seq);
  const std::uint64_t n = blocks.rows();
  const TensorId ids = t.input("input_ids", n * 8);
  const TensorId types = t.input("token_type_ids", n * 8);
  const TensorId labels = t.input("mlm_labels", n * 8);
  const TensorId words = t.parameter("embeddings.word", vocab * width);
  const TensorId positions = t.parameter("embeddings.position", 512 * width);
  const TensorId type_table = t.parameter("embeddings.token_type", 2 * width);
  TensorId x = t.forward({.name = "embeddings", .reads = {ids, types}, .params = {words, positions, type_table},
                          .output_bytes = blocks.bytes(n, width)});
  x = blocks.layer_norm("embeddings.ln", x, n, width);
  for (std::uint64_t layer = 0; layer < o.layers; ++layer)
    x = blocks.block("layer" + std::to_string(layer), x, width, 16, 4096, false);
  x = blocks.linear("mlm.transform", x, n, width, width);
  x = blocks.gelu("mlm.gelu", x, n, width);
  x = blocks.layer_norm("mlm.ln", x, n, width);
  const TensorId logits = blocks.linear("mlm.decoder", x, n, width, vocab, true, words);
  t.loss(logits, labels);
  return t.finish("bert-large");
}

Program gpt2_xl(const NetworkOptions& o) {
  const std::uint64_t width = 1600, vocab = 50257;
  Trainer t(o.roofline);
  TransformerBlocks blocks(t, o.batch, o.seq);
  const std::uint64_t n = blocks.rows();
  const TensorId ids = t.input("input_ids", n * 8);
  const TensorId labels = t.input("labels", n * 8);
  const TensorId wte = t.parameter("wte", vocab * width);
  const TensorId wpe = t.parameter("wpe", 1024 * width);
  const TensorId tokens = embed(t, blocks, "wte.lookup", ids, wte, n, width);
  const TensorId where = embed(t, blocks, "wpe.lookup", ids, wpe, n, width);
  TensorId x = blocks.add("embeddings.add", tokens, where, n, width);
  for (std::uint64_t layer = 0; layer < o.layers; ++layer)
    x = blocks.block(std::string("h.").append(std::to_string(layer)), x, width, 25, 4 * width, true);
  x = blocks.layer_norm("ln_f", x, n, width);
  const TensorId logits = blocks.linear("lm_head", x, n, width, vocab, false, wte);
  t.loss(logits, labels);
  return t.finish("gpt2-xl");
}

Program vit_large(const NetworkOptions& o) {
  const std::uint64_t width = 1024, patches = 196, tokens = patches + 1;
  Trainer t(o.roofline);
  TransformerBlocks blocks(t, o.batch, tokens);
  const std::uint64_t n = blocks.rows(), e = t.element_bytes();
  const TensorId images = t.input("images", o.batch * 3 * 224 * 224 * e);
  const TensorId labels = t.input("labels", o.batch * 8);
  const TensorId patch_w = t.parameter("patch_embed.weight", width * 3 * 16 * 16);
  const TensorId patch_b = t.parameter("patch_embed.bias", width);
  const TensorId embedded = t.forward({.name = "patch_embed", .inputs = {images}, .params = {patch_w, patch_b},
                                       .output_bytes = blocks.bytes(o.batch * patches, width),
                                       .flops = 2.0 * static_cast<double>(o.batch * patches * width * 768)});
  const TensorId cls = t.parameter("cls_token", width);
  const TensorId pos = t.parameter("pos_embed", tokens * width);
  TensorId x = t.forward({.name = "cls_pos", .inputs = {embedded}, .params = {cls, pos},
                          .output_bytes = blocks.bytes(n, width), .save_inputs = false});
  for (std::uint64_t layer = 0; layer < o.layers; ++layer)
    x = blocks.block("blocks" + std::to_string(layer), x, width, 16, 4096, true);
  x = blocks.layer_norm("norm", x, n, width);
  const TensorId cls_out = t.forward({.name = "take_cls", .inputs = {x},
                                      .output_bytes = blocks.bytes(o.batch, width), .save_inputs = false});
  const TensorId logits = blocks.linear("head", cls_out, o.batch, width, 1000);
  t.loss(logits, labels);
  return t.finish("vit-l");
}

}  // namespace tidepool::synth
