// The synthetic networks: parameter counts of the published architectures, exact tensor shapes
// for the batch and precision, and a framework that frees each tensor after its last use.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "analyzer/synth/networks.h"

namespace tidepool::synth {
namespace {

Program build(const std::string& model, std::uint64_t batch = 0, std::uint64_t seq = 0,
              Dtype dtype = Dtype::bf16) {
  NetworkOptions o{model, batch, seq, {parse_gpu("h200"), dtype}};
  return build_network(o);
}

std::uint64_t bytes_of(const Program& p, const std::string& name) {
  const auto it = std::find_if(p.tensors.begin(), p.tensors.end(), [&](const Tensor& t) { return t.name == name; });
  return it == p.tensors.end() ? 0 : it->bytes;
}

TEST(Networks, ParameterCountsMatchThePublishedModels) {
  EXPECT_EQ(build("resnet50", 2).parameters, 25'557'032u);         // torchvision resnet50
  EXPECT_EQ(build("bert-large", 1, 16).parameters, 335'174'458u);  // BertForMaskedLM, large
  EXPECT_EQ(build("gpt2-xl", 1, 16).parameters, 1'557'611'200u);   // GPT-2 XL, tied head
  EXPECT_EQ(build("vit-l", 2).parameters, 304'326'632u);           // ViT-L/16, 1000 classes
}

TEST(Networks, TransformersCanBeMadeDeeper) {
  const Program base = build("gpt2-xl", 1, 16);
  const Program deeper = build_network({"gpt2-xl", 1, 16, {parse_gpu("h200")}, 96});
  EXPECT_EQ(deeper.parameters - base.parameters, 48ull * 30'740'800);  // 48 more blocks
}

TEST(Networks, TensorShapesFollowBatchSequenceAndDtype) {
  const Program gpt = build("gpt2-xl", 8, 1024);
  EXPECT_EQ(bytes_of(gpt, "h.0.attn.scores.out"), 8ull * 25 * 1024 * 1024 * 2);  // [b, heads, s, s] bf16
  EXPECT_EQ(bytes_of(gpt, "lm_head.out"), 8ull * 1024 * 50257 * 2);
  EXPECT_EQ(bytes_of(gpt, "h.0.mlp.fc.out"), 8ull * 1024 * 6400 * 2);
  EXPECT_EQ(bytes_of(gpt, "wte.master"), 50257ull * 1600 * 4);  // fp32 master weights
  const Program resnet = build("resnet50", 256, 0, Dtype::fp32);
  EXPECT_EQ(bytes_of(resnet, "stem.conv.out"), 256ull * 64 * 112 * 112 * 4);
  EXPECT_EQ(bytes_of(resnet, "layer4.2.3.conv.out"), 256ull * 2048 * 7 * 7 * 4);
  EXPECT_EQ(bytes_of(resnet, "fc.weight.master"), 0u);  // no master copy in fp32
  const Program bert = build("bert-large", 32, 512);
  EXPECT_EQ(bytes_of(bert, "layer0.attn.qkv.out"), 32ull * 512 * 3072 * 2);
}

TEST(Networks, ForwardBackwardAndAdamAllRun) {
  const Program p = build("resnet50", 4);
  auto count = [&](const std::string& suffix) {
    return std::count_if(p.steps.begin(), p.steps.end(), [&](const Step& s) { return s.name.ends_with(suffix); });
  };
  EXPECT_EQ(count(".conv"), 53);         // forward convolutions
  EXPECT_EQ(count(".conv_wgrad"), 53);   // their weight gradients
  EXPECT_EQ(count(".conv_dgrad"), 52);   // data gradients (not for the images)
  EXPECT_EQ(count("adam"), 161);         // one Adam step per parameter tensor
  EXPECT_EQ(p.steps.front().kind, StepKind::copy_to_device);
  EXPECT_EQ(p.steps.back().kind, StepKind::copy_to_host);
}

TEST(Networks, EveryActivationIsUsedAfterItIsMade) {
  const Program p = build("bert-large", 1, 32);
  std::vector<int> uses(p.tensors.size(), 0);
  for (const Step& s : p.steps)
    for (TensorId t : s.tensors) ++uses[t];
  for (std::size_t t = 0; t < p.tensors.size(); ++t)
    if (p.tensors[t].role == TensorRole::activation) {
      EXPECT_GE(uses[t], 2) << p.tensors[t].name;
    }
}

TEST(Networks, BadOptionsAreRejected) {
  EXPECT_THROW(build("alexnet"), std::invalid_argument);
  EXPECT_THROW(build("gpt2-xl", 1, 2048), std::invalid_argument);
  EXPECT_THROW(build("bert-large", 1, 513), std::invalid_argument);
  EXPECT_THROW(build("resnet50", 1, 128), std::invalid_argument);
  EXPECT_THROW((build_network({"resnet50", 1, 0, {parse_gpu("h200")}, 60})), std::invalid_argument);
  EXPECT_THROW((build_network({"resnet50", 1, 0, {parse_gpu("v100"), Dtype::bf16}})), std::invalid_argument);
}

}  // namespace
}  // namespace tidepool::synth
