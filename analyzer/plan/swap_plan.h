// The swap section of a plan: the swap planner (analyzer/swap) run on the chosen iteration, its
// buffers translated to what the runtime can recognise (allocation ordinals).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/event_stream.h"
#include "analyzer/plan/plan.h"
#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/link.h"
#include "analyzer/swap/swap_op.h"
#include "analyzer/trace/event_source.h"

namespace tidepool::plan {

struct SwapRequest {
  std::string planner = "best";  // paper | best
  std::string link = "pcie5";     // pcie4 | pcie5 | nvlink-c2c | GB/s
  std::optional<std::uint64_t> budget_bytes;
  double max_slowdown_pct = 0;
  // The iteration's buffers that no swap moves go into tidepool's pool (one static arena as high as
  // their largest live total): the planner counts them so (swap::Placement::static_arena) and
  // attacks the arena's peak too. Without a pool each keeps its own allocation.
  bool beside_pool = false;
};

struct SwapPlan {
  SwapSection section;
  std::set<std::uint64_t> swapped_ordinals;  // iteration-scope buffers it moves (kept out of the pool)
  // What the figures were simulated from, to simulate them again beside a pool.
  swap::Model model;
  std::vector<swap::SwapOp> ops;
  swap::Link link;
  std::unordered_map<std::uint64_t, std::uint64_t> alloc_of_ordinal;  // iteration ordinal -> trace alloc id
};

// The trace events [begin, end) of the stream's iteration `range`, in a trace of `trace_events`
// events: what the swap model is built from (the stream's events point back into the trace).
swap::TraceWindow trace_window(std::size_t trace_events, const iteration::EventStream& stream,
                               iteration::Range range);

// The trace windows of the detection's iterations, the reference one first: what the swap model
// of the reference iteration is built from (iteration_model), each buffer's accesses compared with
// the other detected iterations (only buffers accessed the same way in all of them may move).
std::vector<swap::TraceWindow> iteration_windows(std::size_t trace_events,
                                                 const iteration::EventStream& stream,
                                                 const iteration::Detection& detection);
swap::Model iteration_model(const trace::EventSource& source,
                            std::span<const swap::TraceWindow> windows);

// The allocations a swap plan of the iteration `range` may name, by trace allocation id: each one
// made in the iteration (its ordinal among the iteration's allocations), and each one made before
// it and still live at its start (its ordinal among all the program's). The others cannot be
// accessed in the iteration, so they are not kept: a long run makes millions.
using BufferRefs = std::unordered_map<std::uint64_t, BufferRef>;
BufferRefs buffer_refs(const iteration::EventStream& stream, iteration::Range range);

// The simulated peak device memory of a plan with this pool and these swaps: the pool's slots are
// one static arena of its height, beside the persistent buffers, the buffers outside the pool, and
// the swapped buffers while resident (each in its own mapping, at its rounded size).
std::uint64_t peak_with_pool(const SwapPlan& swap, const PoolSection& pool);

// Plans the iteration whose model (iteration_model) is `model` and whose allocations are `refs`.
// Both come from the event stream, which need not be held any more. Throws std::invalid_argument
// for a bad planner, link or target, std::runtime_error when a swap would move a buffer the
// runtime cannot identify.
SwapPlan plan_swap(swap::Model model, const BufferRefs& refs, const SwapRequest& request);

}  // namespace tidepool::plan
