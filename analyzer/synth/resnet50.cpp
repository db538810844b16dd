// ResNet-50 (torchvision v1.5: stride on the 3x3 convolution) on 224x224 images, 1000 classes.
#include <cstdint>
#include <string>

#include "analyzer/synth/networks.h"
#include "analyzer/synth/trainer.h"

namespace tidepool::synth {
namespace {

struct Feature {  // an activation and its shape (channels, height, width)
  TensorId id;
  std::uint64_t c, h, w;
};

class ResNetBuilder {
 public:
  ResNetBuilder(Trainer& t, std::uint64_t batch) : t_(t), n_(batch), e_(t.element_bytes()) {}

  std::uint64_t bytes(std::uint64_t c, std::uint64_t h, std::uint64_t w) const { return n_ * c * h * w * e_; }

  Feature conv(const std::string& name, Feature x, std::uint64_t out, std::uint64_t k,
               std::uint64_t stride, std::uint64_t pad) {
    const std::uint64_t h = (x.h + 2 * pad - k) / stride + 1, w = (x.w + 2 * pad - k) / stride + 1;
    const TensorId weight = t_.parameter(name + ".weight", out * x.c * k * k);
    const double flops = 2.0 * static_cast<double>(n_ * out * h * w * x.c * k * k);
    const TensorId y = t_.forward({.name = name, .inputs = {x.id}, .params = {weight},
                                   .output_bytes = bytes(out, h, w), .flops = flops});
    return {y, out, h, w};
  }
  Feature batch_norm(const std::string& name, Feature x) {
    const TensorId gamma = t_.parameter(name + ".weight", x.c);
    const TensorId beta = t_.parameter(name + ".bias", x.c);
    const TensorId running = t_.state(name + ".running_stats", 2 * x.c * 4);
    const TensorId y = t_.forward({.name = name, .inputs = {x.id}, .params = {gamma, beta},
                                   .state = {running}, .output_bytes = bytes(x.c, x.h, x.w),
                                   .extra_bytes = 2 * x.c * 4});
    return {y, x.c, x.h, x.w};
  }
  Feature relu(const std::string& name, Feature x) {
    const TensorId y = t_.forward({.name = name, .inputs = {x.id}, .output_bytes = bytes(x.c, x.h, x.w),
                                   .save_inputs = false, .save_output = true});
    return {y, x.c, x.h, x.w};
  }
  Feature conv_bn(const std::string& name, Feature x, std::uint64_t out, std::uint64_t k,
                  std::uint64_t stride, std::uint64_t pad, bool with_relu) {
    Feature y = batch_norm(name + ".bn", conv(name + ".conv", x, out, k, stride, pad));
    return with_relu ? relu(name + ".relu", y) : y;
  }
  Feature bottleneck(const std::string& name, Feature x, std::uint64_t width, std::uint64_t stride) {
    Feature y = conv_bn(name + ".1", x, width, 1, 1, 0, true);
    y = conv_bn(name + ".2", y, width, 3, stride, 1, true);
    y = conv_bn(name + ".3", y, width * 4, 1, 1, 0, false);
    Feature identity = x;
    if (stride != 1 || x.c != width * 4) identity = conv_bn(name + ".downsample", x, width * 4, 1, stride, 0, false);
    const TensorId sum = t_.forward({.name = name + ".add", .inputs = {y.id, identity.id},
                                     .output_bytes = bytes(y.c, y.h, y.w), .save_inputs = false,
                                     .pass_gradient = true});
    return relu(name + ".relu", {sum, y.c, y.h, y.w});
  }

  Program build() {
    const TensorId images = t_.input("images", bytes(3, 224, 224));
    const TensorId labels = t_.input("labels", n_ * 8);
    Feature x = conv_bn("stem", {images, 3, 224, 224}, 64, 7, 2, 3, true);
    const std::uint64_t h = (x.h + 2 - 3) / 2 + 1, w = (x.w + 2 - 3) / 2 + 1;
    const TensorId pooled = t_.forward({.name = "maxpool", .inputs = {x.id}, .output_bytes = bytes(x.c, h, w),
                                        .extra_bytes = n_ * x.c * h * w * 8});  // int64 indices
    x = {pooled, x.c, h, w};
    const std::uint64_t blocks[] = {3, 4, 6, 3}, widths[] = {64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage)
      for (std::uint64_t b = 0; b < blocks[stage]; ++b)
        x = bottleneck("layer" + std::to_string(stage + 1) + "." + std::to_string(b), x, widths[stage],
                       stage > 0 && b == 0 ? 2 : 1);
    const TensorId avg = t_.forward({.name = "avgpool", .inputs = {x.id}, .output_bytes = n_ * x.c * e_,
                                     .save_inputs = false});
    const TensorId fc_w = t_.parameter("fc.weight", 1000 * x.c), fc_b = t_.parameter("fc.bias", 1000);
    const TensorId logits = t_.forward({.name = "fc", .inputs = {avg}, .params = {fc_w, fc_b},
                                        .output_bytes = n_ * 1000 * e_,
                                        .flops = 2.0 * static_cast<double>(n_ * x.c * 1000)});
    t_.loss(logits, labels);
    return t_.finish("resnet50");
  }

 private:
  Trainer& t_;
  std::uint64_t n_, e_;
};

}  // namespace

Program resnet50(const NetworkOptions& options) {
  Trainer trainer(options.roofline);
  return ResNetBuilder(trainer, options.batch).build();
}

}  // namespace tidepool::synth
