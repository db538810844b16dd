// The swap planner's API: plan(model, target, planner, link) returns the swap operations and
// what the simulator says about them, beside the unoptimized run and the two bounds.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "analyzer/swap/bounds.h"
#include "analyzer/swap/link.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/simulator.h"
#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {

enum class Planner { paper, best };
Planner parse_planner(std::string_view name);  // "paper" | "best"; std::invalid_argument otherwise
std::string_view to_string(Planner planner);

// Either a memory budget (the least slowdown that brings the peak to it), or, without one, the
// lowest peak within max_slowdown_pct of the unoptimized iteration time.
struct Target {
  std::optional<Bytes> budget;
  double max_slowdown_pct = 0;
  // static_arena when the plan goes beside tidepool's pool (the iteration's unswapped buffers in one
  // static arena): every peak, the baseline's included, is then simulated so.
  Placement placement = Placement::own_allocations;
};

struct Result {
  std::vector<SwapOp> ops;
  Simulation baseline;   // without swaps
  Simulation simulated;  // with ops
  Bounds bounds;         // at the target's slowdown (for a budget: the slowdown reached)
  bool target_met = false;

  double slowdown_pct() const {
    return (simulated.iteration_seconds / baseline.iteration_seconds - 1) * 100;
  }
};

// Throws std::invalid_argument when the model is invalid or the target negative.
Result plan(const Model& model, const Target& target, Planner planner, const Link& link);

}  // namespace tidepool::swap
