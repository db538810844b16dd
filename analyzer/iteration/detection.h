// Where the iterations of a program are in its event stream, found from the stream's period or
// from explicit boundaries (an NVTX range name, a kernel name).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration {

enum class BoundaryKind { period, nvtx_range, kernel };

struct Detection {
  BoundaryKind kind = BoundaryKind::period;
  std::string boundary_name;      // the NVTX range or kernel name; empty for `period`
  std::size_t period = 0;         // events in one iteration (the reference one)
  std::vector<Range> iterations;  // whole iterations, in order; events before the first are a
                                  // prologue (and a warm-up that differs), after the last a tail
  std::size_t reference = 0;      // index of the iteration to plan for: the last one identical
                                  // to the most common iteration content
  std::size_t exact = 0;          // iterations identical to the reference one

  std::size_t first_boundary() const { return iterations.front().begin; }
  double regularity() const { return static_cast<double>(exact) / static_cast<double>(iterations.size()); }
  Range reference_iteration() const { return iterations[reference]; }
};

// From the stream's own period. nullopt when nothing repeats at least twice.
std::optional<Detection> detect_by_period(const EventStream& stream);

// Each push of the NVTX range `name`, or each launch of the kernel `name`, starts an iteration.
// Throws std::runtime_error (one line) when the name never appears or starts fewer than two
// iterations.
Detection detect_by_nvtx_range(const EventStream& stream, std::string_view name);
Detection detect_by_kernel(const EventStream& stream, std::string_view name);

}  // namespace tidepool::iteration
