// Builds event streams for the iteration tests: allocations, frees, launches, and a synthetic
// training step (forward allocating activations, backward freeing them, an optimizer step).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration::testing {

class StreamBuilder {
 public:
  std::uint64_t alloc(std::uint64_t bytes) {
    const std::uint64_t id = next_id_++;
    sizes_.resize(id + 1);
    sizes_[id] = bytes;
    stream_.events.push_back({.kind = EventKind::alloc, .allocation = id, .bytes = bytes});
    return id;
  }
  void free(std::uint64_t id) {
    stream_.events.push_back({.kind = EventKind::free, .allocation = id, .bytes = sizes_[id]});
  }
  void launch(const std::string& kernel) {
    stream_.events.push_back({.kind = EventKind::launch, .name = stream_.intern(kernel)});
  }
  void mark(const std::string& range) { stream_.marks.push_back({stream_.events.size(), stream_.intern(range)}); }
  std::size_t size() const { return stream_.events.size(); }
  EventStream& stream() { return stream_; }

  // Weights and optimizer state of `layers` layers, allocated once.
  void prologue(int layers) {
    for (int l = 0; l < layers; ++l) alloc(4096 * (l + 1));
    launch("init_weights");
  }

  // One training step: layers of identical shape, so the step itself has an inner repetition.
  // A warm-up step also autotunes each layer's kernel with a workspace of its own.
  void training_step(int layers, bool warm_up = false) {
    launch("embedding");
    std::vector<std::uint64_t> activations;
    for (int l = 0; l < layers; ++l) {
      const std::uint64_t scratch = alloc(1 << 12);
      activations.push_back(alloc(1 << 16));
      launch("gemm");
      if (warm_up) {
        const std::uint64_t workspace = alloc(1 << 20);
        launch("autotune");
        free(workspace);
      }
      launch("gelu");
      free(scratch);
    }
    const std::uint64_t loss = alloc(512);
    launch("loss");
    for (int l = layers - 1; l >= 0; --l) {
      const std::uint64_t grad = alloc(1 << 16);
      launch("gemm_backward");
      free(activations[static_cast<std::size_t>(l)]);
      free(grad);
    }
    launch("adam");
    free(loss);
  }

 private:
  EventStream stream_;
  std::vector<std::uint64_t> sizes_;
  std::uint64_t next_id_ = 1;
};

}  // namespace tidepool::iteration::testing
