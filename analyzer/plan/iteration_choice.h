// Which iterations to plan for: detected from the stream's period, or delimited by an NVTX range
// or a kernel the user names; and the plan's description of them.
#pragma once

#include <string>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/event_stream.h"
#include "analyzer/plan/plan.h"

namespace tidepool::plan {

struct IterationRequest {
  BoundaryKind boundary = BoundaryKind::period;
  std::string name;  // the NVTX range or kernel name
};

// Throws std::runtime_error (one line) when no iteration can be found.
iteration::Detection find_iterations(const iteration::EventStream& stream, const IterationRequest& request);

// How many leading allocations and launches of an iteration the plan keeps as its anchor.
inline constexpr std::size_t kAnchorEvents = 16;

IterationDescription describe(const iteration::EventStream& stream, const iteration::Detection& detection);

}  // namespace tidepool::plan
