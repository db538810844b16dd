// The swap section of a plan: the swap planner (analyzer/swap) run on the chosen iteration, its
// buffers translated to what the runtime can recognise (allocation ordinals).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "analyzer/iteration/event_stream.h"
#include "analyzer/plan/plan.h"
#include "analyzer/trace/trace.h"

namespace tidepool::plan {

struct SwapRequest {
  std::string planner = "best";  // paper | best
  std::string link = "pcie5";     // pcie4 | pcie5 | nvlink-c2c | GB/s
  std::optional<std::uint64_t> budget_bytes;
  double max_slowdown_pct = 0;
};

struct SwapPlan {
  SwapSection section;
  std::set<std::uint64_t> swapped_ordinals;  // iteration-scope buffers it moves (kept out of the pool)
};

// Throws std::invalid_argument for a bad planner, link or target, std::runtime_error when a swap
// would move a buffer the runtime cannot identify.
SwapPlan plan_swap(const trace::Trace& trace, const iteration::EventStream& stream, iteration::Range range,
                   const SwapRequest& request);

}  // namespace tidepool::plan
