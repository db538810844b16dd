// train_mlp's network and its training step (see trainer.h).
#include "tools/examples/train_mlp/trainer.h"

#include "tools/examples/train_mlp/mlp_math.h"

namespace mlp {

Trainer::Trainer(examples::Session& session, const Config& config)
    : session_(session),
      config_(config),
      host_x_(static_cast<size_t>(config.batch) * config.width, 0.0f),
      host_labels_(config.batch, 0) {
  auto fn = [&](const char* name) { return session_.function(name); };
  kernels_ = {fn("mlp_init_uniform"),
              fn("mlp_linear_forward"),
              fn("mlp_relu_forward"),
              fn("mlp_softmax_cross_entropy"),
              fn("mlp_mean"),
              fn("mlp_linear_backward_input"),
              fn("mlp_linear_backward_weight"),
              fn("mlp_bias_backward"),
              fn("mlp_relu_backward"),
              fn("mlp_adam")};
  const long long weights = static_cast<long long>(config_.width) * config_.width;
  const float scale = init_scale(config_.width);
  for (int i = 0; i < config_.depth; ++i) {
    Layer layer{};
    layer.weight = session_.alloc(weights * sizeof(float));
    session_.launch(kernels_.init_uniform, examples::grid_for(weights), nullptr, layer.weight,
                    weights, static_cast<unsigned long long>(layer_seed(config_.seed, i)), scale);
    layer.bias = zeroed(config_.width);
    layer.weight_m = zeroed(weights);
    layer.weight_v = zeroed(weights);
    layer.bias_m = zeroed(config_.width);
    layer.bias_v = zeroed(config_.width);
    layers_.push_back(layer);
  }
}

Trainer::~Trainer() {
  for (const Layer& layer : layers_) {
    for (CUdeviceptr p :
         {layer.weight, layer.bias, layer.weight_m, layer.weight_v, layer.bias_m, layer.bias_v}) {
      session_.free(p);
    }
  }
}

CUdeviceptr Trainer::zeroed(size_t floats) {
  CUdeviceptr p = session_.alloc(floats * sizeof(float));
  session_.check()(cuMemsetD32(p, 0, floats));
  return p;
}

void Trainer::resize_batch(int batch, int compute_rows) {
  config_.batch = batch;
  config_.compute_rows = compute_rows;
  host_x_.assign(static_cast<size_t>(batch) * config_.width, 0.0f);
  host_labels_.assign(static_cast<size_t>(batch), 0);
}

size_t Trainer::activation_bytes() const {
  return static_cast<size_t>(config_.batch) * config_.width * sizeof(float);
}

// The data differ every step; rows past compute_rows are never read, and stay zero.
void Trainer::upload_batch(int step, CUdeviceptr x, CUdeviceptr labels) {
  const int width = config_.width;
  for (int r = 0; r < config_.compute_rows; ++r) {
    const uint64_t sample = static_cast<uint64_t>(step) * config_.batch + r;
    const int label = sample_label(config_.seed, sample, width);
    host_labels_[r] = label;
    for (int c = 0; c < width; ++c) {
      host_x_[static_cast<size_t>(r) * width + c] = sample_feature(config_.seed, sample, c, label);
    }
  }
  session_.check()(cuMemcpyHtoD(x, host_x_.data(), activation_bytes()));
  session_.check()(
      cuMemcpyHtoD(labels, host_labels_.data(), host_labels_.size() * sizeof(int32_t)));
}

float Trainer::train_step(int step) {
  const int rows = config_.batch, n = config_.compute_rows, width = config_.width;
  const int depth = config_.depth;
  const size_t act = activation_bytes();
  const size_t per_row = static_cast<size_t>(rows) * sizeof(float);
  examples::Session& s = session_;
  const examples::LaunchGrid rows_by_width = examples::grid_2d(width, n);
  const examples::LaunchGrid elementwise = examples::grid_for(static_cast<long long>(n) * width);

  CUdeviceptr x = s.alloc(act);
  CUdeviceptr labels = s.alloc(static_cast<size_t>(rows) * sizeof(int32_t));
  upload_batch(step, x, labels);

  // Forward: h[i] is layer i's input (h[0] = x), z[i] its output before relu.
  std::vector<CUdeviceptr> h(depth), z(depth);
  h[0] = x;
  for (int i = 0; i < depth; ++i) {
    z[i] = s.alloc(act);
    s.launch(kernels_.linear_forward, rows_by_width, nullptr, h[i], layers_[i].weight,
             layers_[i].bias, z[i], rows, n, width, width);
    if (i + 1 < depth) {
      h[i + 1] = s.alloc(act);
      s.launch(kernels_.relu_forward, elementwise, nullptr, z[i], h[i + 1], rows, n, width);
    }
  }

  // Loss: grad = dloss/dz[depth - 1].
  CUdeviceptr row_loss = s.alloc(per_row);
  CUdeviceptr grad = s.alloc(act);
  s.launch(kernels_.softmax_cross_entropy, examples::grid_for(n), nullptr, z[depth - 1], labels,
           grad, row_loss, rows, n, width);
  s.free(labels);
  s.free(z[depth - 1]);
  CUdeviceptr loss_device = s.alloc(sizeof(float));
  s.launch(kernels_.mean, examples::LaunchGrid{1, 1, 1, 1}, nullptr, row_loss, loss_device, rows,
           n);
  s.free(row_loss);
  float loss = 0.0f;
  s.check()(cuMemcpyDtoH(&loss, loss_device, sizeof loss));
  s.free(loss_device);

  // Backward: grad holds dloss/dz[i] on entering layer i.
  std::vector<CUdeviceptr> weight_grad(depth), bias_grad(depth);
  for (int i = depth - 1; i >= 0; --i) {
    weight_grad[i] = s.alloc(static_cast<size_t>(width) * width * sizeof(float));
    s.launch(kernels_.linear_backward_weight, examples::grid_2d(width, width), nullptr, h[i], grad,
             weight_grad[i], rows, n, width, width);
    bias_grad[i] = s.alloc(static_cast<size_t>(width) * sizeof(float));
    s.launch(kernels_.bias_backward, examples::grid_for(width), nullptr, grad, bias_grad[i], rows,
             n, width);
    if (i == 0) {
      s.free(grad);
      s.free(x);
      break;
    }
    CUdeviceptr grad_h = s.alloc(act);
    s.launch(kernels_.linear_backward_input, rows_by_width, nullptr, grad, layers_[i].weight,
             grad_h, rows, n, width, width);
    s.free(grad);
    s.free(h[i]);
    grad = s.alloc(act);
    s.launch(kernels_.relu_backward, elementwise, nullptr, grad_h, z[i - 1], grad, rows, n, width);
    s.free(grad_h);
    s.free(z[i - 1]);
  }

  // Adam, layer by layer; each gradient is freed after its update.
  const AdamStep adam = adam_step(step);
  const long long weights = static_cast<long long>(width) * width;
  for (int i = 0; i < depth; ++i) {
    const Layer& layer = layers_[i];
    s.launch(kernels_.adam, examples::grid_for(weights), nullptr, layer.weight, layer.weight_m,
             layer.weight_v, weight_grad[i], adam, weights);
    s.launch(kernels_.adam, examples::grid_for(width), nullptr, layer.bias, layer.bias_m,
             layer.bias_v, bias_grad[i], adam, static_cast<long long>(width));
    s.free(weight_grad[i]);
    s.free(bias_grad[i]);
  }
  return loss;
}

void Trainer::add_parameters(examples::Checksum& checksum) const {
  std::vector<float> host(static_cast<size_t>(config_.width) * config_.width);
  for (const Layer& layer : layers_) {
    session_.check()(cuMemcpyDtoH(host.data(), layer.weight, host.size() * sizeof(float)));
    checksum.add_values(std::span<const float>(host));
    session_.check()(cuMemcpyDtoH(host.data(), layer.bias, config_.width * sizeof(float)));
    checksum.add_values(std::span<const float>(host.data(), config_.width));
  }
}

}  // namespace mlp
