// Swap planning for one iteration, buffer ids → allocation ordinals, and the peak beside a pool.
#include "analyzer/plan/swap_plan.h"

#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/planner.h"
#include "analyzer/swap/simulator.h"

namespace tidepool::plan {
BufferRefs buffer_refs(const iteration::EventStream& stream, iteration::Range range) {
  BufferRefs refs;
  std::uint64_t program_ordinal = 0, iteration_ordinal = 0;
  for (std::size_t i = 0; i < range.end; ++i) {
    const iteration::Event& e = stream.events[i];
    if (e.kind == iteration::EventKind::free && i < range.begin) refs.erase(e.allocation);
    if (e.kind != iteration::EventKind::alloc) continue;
    refs[e.allocation] = i < range.begin ? BufferRef{BufferRef::Scope::program, program_ordinal, e.bytes}
                                         : BufferRef{BufferRef::Scope::iteration, iteration_ordinal++, e.bytes};
    ++program_ordinal;
  }
  return refs;
}

swap::TraceWindow trace_window(std::size_t trace_events, const iteration::EventStream& stream,
                               iteration::Range range) {
  const std::size_t end =
      range.end < stream.events.size() ? stream.events[range.end].source : trace_events;
  return {stream.events[range.begin].source, end};
}

std::vector<swap::TraceWindow> iteration_windows(std::size_t trace_events,
                                                 const iteration::EventStream& stream,
                                                 const iteration::Detection& detection) {
  std::vector<swap::TraceWindow> windows{
      trace_window(trace_events, stream, detection.reference_iteration())};
  for (const iteration::Range& r : detection.iterations)
    windows.push_back(trace_window(trace_events, stream, r));
  return windows;
}

swap::Model iteration_model(const trace::EventSource& source,
                            std::span<const swap::TraceWindow> windows) {
  return swap::model_from_trace(source, windows.front(), windows.subspan(1));
}

SwapPlan plan_swap(swap::Model model, const BufferRefs& refs, const SwapRequest& request) {
  const swap::Planner planner = swap::parse_planner(request.planner);
  const swap::Link link = swap::parse_link(request.link);
  swap::Target target;
  target.budget = request.budget_bytes;
  target.max_slowdown_pct = request.max_slowdown_pct;
  target.placement = request.beside_pool ? swap::Placement::static_arena : swap::Placement::own_allocations;
  const swap::Result result = swap::plan(model, target, planner, link);

  SwapPlan out;
  for (const auto& [alloc_id, ref] : refs)
    if (ref.scope == BufferRef::Scope::iteration) out.alloc_of_ordinal[ref.ordinal] = alloc_id;
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
  out.model = std::move(model);
  out.ops = result.ops;
  out.link = link;
  return out;
}

std::uint64_t peak_with_pool(const SwapPlan& swap, const PoolSection& pool) {
  std::unordered_set<std::uint64_t> pooled;  // trace allocation ids
  for (const Slot& slot : pool.slots)
    if (const auto it = swap.alloc_of_ordinal.find(slot.ordinal); it != swap.alloc_of_ordinal.end()) pooled.insert(it->second);
  swap::Model model = swap.model;
  std::vector<std::uint32_t> index(model.buffers.size(), 0);  // old buffer -> new one
  std::vector<swap::Buffer> kept;
  for (std::uint32_t b = 0; b < model.buffers.size(); ++b) {
    if (pooled.contains(model.buffers[b].trace_alloc_id)) continue;
    index[b] = static_cast<std::uint32_t>(kept.size());
    kept.push_back(std::move(model.buffers[b]));
  }
  if (pool.arena_bytes > 0) {
    swap::Buffer arena;
    arena.size = pool.arena_bytes;
    arena.end = static_cast<std::uint32_t>(model.ops.size());
    arena.persistent = true;
    arena.never_swapped = true;
    kept.push_back(std::move(arena));
  }
  model.buffers = std::move(kept);
  std::vector<swap::SwapOp> ops = swap.ops;
  for (swap::SwapOp& op : ops) {
    if (pooled.contains(swap.model.buffers[op.buffer].trace_alloc_id))
      throw std::logic_error("a swapped buffer was packed into the pool");
    op.buffer = index[op.buffer];
  }
  return swap::simulate(model, ops, swap.link).peak_bytes;
}

}  // namespace tidepool::plan
