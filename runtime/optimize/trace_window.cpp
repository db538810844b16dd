// Cutting a trace at a sequence number.
#include "runtime/optimize/trace_window.h"

#include <map>
#include <utility>
#include <variant>
#include <vector>

namespace tidepool::runtime::optimize {
namespace {

bool plannable(trace::AllocKind kind) {
  using K = trace::AllocKind;
  return kind == K::device || kind == K::device_pitched || kind == K::stream_ordered ||
         kind == K::pool;
}

}  // namespace

TraceWindow trace_since(trace::Trace whole, uint64_t after_seq) {
  if (after_seq == 0) return {std::move(whole), 0};
  std::map<uint64_t, size_t> live;  // alloc id -> index of its Alloc event, in allocation order
  std::map<uint64_t, uint64_t> context_of;
  std::vector<trace::Event> kept;
  size_t first_after = whole.events.size();
  for (size_t i = 0; i < whole.events.size(); ++i) {
    const trace::Event& e = whole.events[i];
    if (e.seq > after_seq) {
      first_after = i;
      break;
    }
    if (const auto* a = std::get_if<trace::Alloc>(&e.record); a != nullptr && plannable(a->kind)) {
      live[a->alloc_id] = i;
      context_of[a->alloc_id] = a->context;
    } else if (const auto* f = std::get_if<trace::Free>(&e.record)) {
      live.erase(f->alloc_id);
    } else if (const auto* d = std::get_if<trace::ContextDestroy>(&e.record)) {
      std::erase_if(live, [&](const auto& entry) { return context_of[entry.first] == d->context; });
    }
  }
  TraceWindow window;
  window.carried_allocations = live.size();
  for (const auto& [id, index] : live) kept.push_back(std::move(whole.events[index]));
  for (size_t i = first_after; i < whole.events.size(); ++i)
    kept.push_back(std::move(whole.events[i]));
  whole.events = std::move(kept);
  window.trace = std::move(whole);
  return window;
}

}  // namespace tidepool::runtime::optimize
