// A small trace of a training program for the plan tests: weights allocated once, then steps of
// `layers` layers (activations allocated forward and freed backward), each step inside an NVTX
// range "step", every kernel touching its layer's buffers and taking `kernel_ns` on the device;
// and a way to write it to a file with the trace writer.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzer/trace/trace.h"
#include "analyzer/trace/writer.h"

namespace tidepool::plan::testing {

class TrainingTrace {
 public:
  TrainingTrace(int steps, int layers, std::uint64_t activation_bytes = 5000, std::uint64_t kernel_ns = 10000) {
    trace_.header.program = "train_test";
    trace_.strings = {{1, "gemm"}, {2, "gemm_backward"}, {3, "adam"}, {4, "step"}};
    std::vector<std::uint64_t> weights;
    for (int l = 0; l < layers; ++l) weights.push_back(alloc(1000 * (l + 1)));
    for (int s = 0; s < steps; ++s) {
      add(trace::RangePush{.name_id = 4});
      std::vector<std::uint64_t> activations;
      for (int l = 0; l < layers; ++l) {
        const auto scratch = alloc(300);
        activations.push_back(alloc(activation_bytes + 100 * static_cast<std::uint64_t>(l)));
        launch(1, {weights[static_cast<std::size_t>(l)], scratch, activations.back()}, kernel_ns);
        free(scratch);
      }
      for (int l = layers - 1; l >= 0; --l) {
        const auto grad = alloc(700);
        launch(2, {weights[static_cast<std::size_t>(l)], activations[static_cast<std::size_t>(l)], grad}, kernel_ns);
        free(activations[static_cast<std::size_t>(l)]);
        free(grad);
      }
      launch(3, weights, kernel_ns);
      add(trace::RangePop{});
    }
    for (auto w : weights) free(w);
  }

  const trace::Trace& trace() const { return trace_; }

  void write(const std::filesystem::path& path) const {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) throw std::runtime_error("cannot create " + path.string());
    {
      trace::Writer writer(fd);
      bool ok = writer.begin(trace_.header) == trace::WriteStatus::ok;
      for (const auto& [id, text] : trace_.strings) ok = ok && writer.append(trace::String{id, text}) == trace::WriteStatus::ok;
      for (const auto& e : trace_.events) ok = ok && writer.append(e) == trace::WriteStatus::ok;
      ok = ok && writer.flush() == trace::WriteStatus::ok;
      if (!ok) throw std::runtime_error("cannot write " + path.string());
    }
    ::close(fd);
  }

 private:
  template <class R>
  void add(R record) {
    trace_.events.push_back({trace_.events.size() + 1, trace_.events.size() * 1000, 1, trace::Record{std::move(record)}});
  }
  std::uint64_t alloc(std::uint64_t size) {
    const std::uint64_t id = next_id_++;
    add(trace::Alloc{.alloc_id = id, .kind = trace::AllocKind::device, .address = id << 20, .size = size});
    return id;
  }
  void free(std::uint64_t id) { add(trace::Free{.alloc_id = id}); }
  void launch(std::uint32_t name, const std::vector<std::uint64_t>& touched, std::uint64_t ns) {
    trace::Launch launch{.op_id = next_op_++, .kernel_name_id = name, .params_decoded = true};
    for (auto id : touched) launch.accesses.push_back({id, 0, false});
    add(launch);
    add(trace::DeviceTiming{.op_id = launch.op_id, .start_ns = clock_ns_, .end_ns = clock_ns_ + ns});
    clock_ns_ += ns;
  }

  trace::Trace trace_;
  std::uint64_t next_id_ = 1;
  std::uint64_t next_op_ = 1;
  std::uint64_t clock_ns_ = 0;
};

}  // namespace tidepool::plan::testing
