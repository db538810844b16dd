// Swap planning for one iteration, and buffer ids → allocation ordinals.
#include "analyzer/plan/swap_plan.h"

#include <stdexcept>
#include <unordered_map>

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/planner.h"

namespace tidepool::plan {
namespace {

// Each allocation of the stream up to the iteration's end, by trace allocation id: its ordinal
// among the iteration's allocations, or among all the program's when made before the iteration.
std::unordered_map<std::uint64_t, BufferRef> buffer_refs(const iteration::EventStream& stream, iteration::Range range) {
  std::unordered_map<std::uint64_t, BufferRef> refs;
  std::uint64_t program_ordinal = 0, iteration_ordinal = 0;
  for (std::size_t i = 0; i < range.end; ++i) {
    const iteration::Event& e = stream.events[i];
    if (e.kind != iteration::EventKind::alloc) continue;
    refs[e.allocation] = i < range.begin ? BufferRef{BufferRef::Scope::program, program_ordinal, e.bytes}
                                         : BufferRef{BufferRef::Scope::iteration, iteration_ordinal++, e.bytes};
    ++program_ordinal;
  }
  return refs;
}

swap::TraceWindow trace_window(const trace::Trace& trace, const iteration::EventStream& stream, iteration::Range range) {
  const std::size_t end = range.end < stream.events.size() ? stream.events[range.end].source : trace.events.size();
  return {stream.events[range.begin].source, end};
}

}  // namespace

SwapPlan plan_swap(const trace::Trace& trace, const iteration::EventStream& stream, iteration::Range range,
                   const SwapRequest& request) {
  const swap::Planner planner = swap::parse_planner(request.planner);
  const swap::Link link = swap::parse_link(request.link);
  const swap::Model model = swap::model_from_trace(trace, trace_window(trace, stream, range));
  swap::Target target;
  target.budget = request.budget_bytes;
  target.max_slowdown_pct = request.max_slowdown_pct;
  const swap::Result result = swap::plan(model, target, planner, link);

  const auto refs = buffer_refs(stream, range);
  SwapPlan out;
  out.section.planner = std::string(swap::to_string(planner));
  out.section.link = link.name;
  out.section.planned_peak_bytes = result.simulated.peak_bytes;
  out.section.simulated_slowdown_pct = result.slowdown_pct();
  for (const swap::SwapOp& op : result.ops) {
    const std::uint64_t alloc_id = model.buffers.at(op.buffer).trace_alloc_id;
    const auto ref = refs.find(alloc_id);
    if (ref == refs.end())
      throw std::runtime_error("the swap plan moves allocation " + std::to_string(alloc_id) +
                               ", which the runtime cannot identify (not a cuMemAlloc-style allocation)");
    if (ref->second.scope == BufferRef::Scope::iteration) out.swapped_ordinals.insert(ref->second.ordinal);
    SwapOperation s;
    s.buffer = ref->second;
    s.out_after_op = op.out_after;
    s.in_at_op = op.in_at;
    s.needed_by_op = op.needed_by;
    s.copy_out = op.copy_out;
    if (op.release_before) s.release_before_op = *op.release_before;
    out.section.operations.push_back(s);
  }
  return out;
}

}  // namespace tidepool::plan
