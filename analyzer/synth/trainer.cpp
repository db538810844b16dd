// The recording framework: forward as declared, backward derived in reverse, then Adam.
#include "analyzer/synth/trainer.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace tidepool::synth {

Trainer::Trainer(Roofline roofline) : roofline_(std::move(roofline)) { roofline_.validate(); }

std::uint64_t Trainer::element_bytes() const { return dtype_bytes(roofline_.dtype); }

TensorId Trainer::tensor(std::string name, std::uint64_t bytes, TensorRole role) {
  program_.tensors.push_back({std::move(name), std::max<std::uint64_t>(bytes, 1), role});
  return static_cast<TensorId>(program_.tensors.size() - 1);
}

TensorId Trainer::input(std::string name, std::uint64_t bytes) {
  const TensorId id = tensor(name, bytes, TensorRole::input);
  // The batch arrives over PCIe from pinned host memory, at about 25 GB/s.
  program_.steps.push_back({StepKind::copy_to_device, "HtoD " + name, {id},
                            static_cast<double>(bytes) / 25e9 + 5e-6, 0});
  return id;
}

TensorId Trainer::parameter(std::string name, std::uint64_t elements) {
  const TensorId id = tensor(name, elements * element_bytes(), TensorRole::parameter);
  params_.push_back(id);
  program_.parameters += elements;
  tensor(name + ".adam_m", elements * 4, TensorRole::optimizer_state);
  tensor(name + ".adam_v", elements * 4, TensorRole::optimizer_state);
  if (roofline_.dtype == Dtype::bf16)
    tensor(name + ".master", elements * 4, TensorRole::optimizer_state);
  return id;
}

TensorId Trainer::state(std::string name, std::uint64_t bytes) {
  return tensor(std::move(name), bytes, TensorRole::buffer);
}

void Trainer::kernel(std::string name, std::vector<TensorId> tensors, double flops, bool matmul) {
  std::sort(tensors.begin(), tensors.end());
  tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
  double bytes = 0;
  for (TensorId t : tensors) bytes += static_cast<double>(program_.tensors[t].bytes);
  const double seconds = roofline_.seconds(flops, bytes, matmul);
  program_.steps.push_back({StepKind::kernel, std::move(name), std::move(tensors), seconds, flops});
}

TensorId Trainer::forward(Layer layer) {
  const TensorId output = tensor(layer.name + ".out", layer.output_bytes, TensorRole::activation);
  const TensorId extra = layer.extra_bytes > 0
                             ? tensor(layer.name + ".saved", layer.extra_bytes, TensorRole::activation)
                             : kNone;
  std::vector<TensorId> touched = layer.inputs;
  for (const auto* list : {&layer.reads, &layer.params, &layer.state})
    touched.insert(touched.end(), list->begin(), list->end());
  touched.push_back(output);
  if (extra != kNone) touched.push_back(extra);
  kernel(layer.name, std::move(touched), layer.flops, layer.flops > 0);
  recorded_.push_back({std::move(layer), output, extra});
  return output;
}

void Trainer::loss(TensorId logits, TensorId labels) {
  Layer ce{.name = "cross_entropy", .inputs = {logits}, .reads = {labels}, .output_bytes = 4,
           .extra_bytes = program_.tensors[logits].bytes / element_bytes() * 4,
           .save_inputs = false};
  loss_ = forward(std::move(ce));
}

void Trainer::add_gradient(std::unordered_map<TensorId, TensorId>& grads, TensorId of,
                           TensorId grad) {
  const auto it = grads.find(of);
  if (it == grads.end()) {
    grads.emplace(of, grad);
    return;
  }
  const TensorId sum = tensor(program_.tensors[of].name + ".grad_sum",
                              program_.tensors[of].bytes, TensorRole::gradient);
  kernel("grad_accumulate", {it->second, grad, sum}, 0, false);
  it->second = sum;
}

void Trainer::backward(const Recorded& r) {
  const auto it = grads_.find(r.output);
  if (it == grads_.end()) return;
  const TensorId g = it->second;
  const Layer& layer = r.layer;
  std::vector<TensorId> need;
  for (TensorId x : layer.inputs)
    if (program_.tensors[x].role == TensorRole::activation) need.push_back(x);
  if (layer.pass_gradient) {
    for (TensorId x : need) add_gradient(grads_, x, g);
    return;
  }
  std::vector<TensorId> input_grads, param_grads;
  for (TensorId x : need)
    input_grads.push_back(tensor(program_.tensors[x].name + ".grad", program_.tensors[x].bytes,
                                 TensorRole::gradient));
  for (TensorId p : layer.params)
    param_grads.push_back(tensor(program_.tensors[p].name + ".grad", program_.tensors[p].bytes,
                                 TensorRole::gradient));
  std::vector<TensorId> saved = layer.reads;
  if (layer.save_inputs) saved.insert(saved.end(), layer.inputs.begin(), layer.inputs.end());
  if (layer.save_output) saved.push_back(r.output);
  if (r.extra != kNone) saved.push_back(r.extra);
  auto with = [g](std::vector<TensorId> a, const std::vector<TensorId>& b,
                  const std::vector<TensorId>& c) {
    a.push_back(g);
    a.insert(a.end(), b.begin(), b.end());
    a.insert(a.end(), c.begin(), c.end());
    return a;
  };
  if (layer.flops > 0) {
    if (!need.empty()) {
      std::vector<TensorId> reads = layer.params;
      if (layer.inputs.size() > 1) reads.insert(reads.end(), layer.inputs.begin(), layer.inputs.end());
      kernel(layer.name + "_dgrad", with(reads, input_grads, {}),
             layer.flops * static_cast<double>(need.size()), true);
    }
    if (!layer.params.empty())
      kernel(layer.name + "_wgrad", with(saved, param_grads, {}), layer.flops, true);
  } else {
    std::vector<TensorId> reads = saved;
    reads.insert(reads.end(), layer.params.begin(), layer.params.end());
    kernel(layer.name + "_backward", with(reads, input_grads, param_grads), 0, false);
  }
  for (std::size_t i = 0; i < need.size(); ++i) add_gradient(grads_, need[i], input_grads[i]);
  for (std::size_t i = 0; i < layer.params.size(); ++i)
    add_gradient(grads_, layer.params[i], param_grads[i]);
}

void Trainer::optimizer_step() {
  for (TensorId p : params_) {
    const auto it = grads_.find(p);
    if (it == grads_.end()) continue;
    std::vector<TensorId> touched = {p, it->second, p + 1, p + 2};  // parameter, grad, m, v
    if (roofline_.dtype == Dtype::bf16) touched.push_back(p + 3);   // fp32 master weights
    kernel("adam", std::move(touched), 0, false);
  }
}

Program Trainer::finish(std::string model) {
  if (loss_ == kNone) throw std::logic_error("synth: the network declared no loss");
  const TensorId seed = tensor("loss.grad", 4, TensorRole::gradient);
  kernel("loss_grad_init", {seed}, 0, false);
  grads_.emplace(loss_, seed);
  for (auto r = recorded_.rbegin(); r != recorded_.rend(); ++r) backward(*r);
  optimizer_step();
  program_.steps.push_back({StepKind::copy_to_host, "DtoH loss", {loss_}, 5e-6, 0});
  program_.model = std::move(model);
  return std::move(program_);
}

}  // namespace tidepool::synth
