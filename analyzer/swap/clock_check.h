// Checks the timeline simulator against the clock a trace was recorded with (simcuda's simulated
// clock, or a GPU's): the iteration simulated from the model without swaps, beside the
// DeviceTiming records of the same operations.
#pragma once

#include <cstddef>
#include <vector>

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/model.h"
#include "analyzer/trace/trace.h"

namespace tidepool::swap {

// The recorder samples device timing, so the comparison runs over the iteration's timed ops:
// from the start of the one that started first to the end of the one that ended last.
struct StreamFinish {
  double recorded = 0;   // seconds from that first start to the stream's last timed end
  double simulated = 0;  // the same ops, simulated
};

struct ClockComparison {
  std::size_t timed_ops = 0;
  double recorded_seconds = 0;   // first timed start to last timed end, on the recorded clock
  double simulated_seconds = 0;  // the same ops in the simulation without swaps
  double iteration_seconds = 0;  // the simulated iteration (its steady-state period)
  std::vector<StreamFinish> streams;  // per model stream with a timed op
};

// `model` is model_from_trace(trace, window). Throws std::invalid_argument when no op of the
// window was timed.
ClockComparison compare_with_recorded_clock(const trace::Trace& trace, const Model& model);

}  // namespace tidepool::swap
