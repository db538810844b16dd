// Trace -> swap model (see from_trace.h).
#include "analyzer/swap/from_trace.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <utility>
#include <variant>

#include "analyzer/swap/trace_facts.h"
#include "analyzer/swap/window_ops.h"

namespace tidepool::swap {
namespace {

// An allocation as one iteration window sees it: what a buffer of that window's model holds.
struct Seen {
  bool persistent = false;
  std::uint32_t begin = 0, end = 0;  // window-relative ops
  std::uint32_t first_op = 0;        // the window's first op number: accesses are relative to it
  std::span<const Access> accesses;  // op numbers across the trace
};

// Ops of the window: numbers [first, last) across the trace.
std::pair<std::uint32_t, std::uint32_t> op_range(const TraceFacts& facts, TraceWindow window) {
  return {facts.ops_before(window.begin), facts.ops_before(window.end)};
}

// `a` must have been made before the window ends and not freed before it begins.
Seen seen_in(const TraceFacts& facts, std::uint32_t a, TraceWindow window) {
  const AllocationFacts& info = facts.allocations()[a];
  const auto [first, last] = op_range(facts, window);
  const bool before = info.alloc_event < window.begin, freed_inside = info.freed_before(window.end);
  Seen seen;
  seen.persistent = before && !freed_inside;
  seen.begin = before ? 0 : facts.ops_before(info.alloc_event) - first;
  seen.end = (freed_inside ? facts.ops_before(info.free_event) : last) - first;
  seen.first_op = first;
  const std::span<const Access> all = facts.accesses(a);
  auto at = [&](std::uint32_t op) {
    return std::lower_bound(all.begin(), all.end(), op, [](const Access& x, std::uint32_t o) { return x.op < o; });
  };
  seen.accesses = {at(first), at(last)};
  return seen;
}

bool same(const Seen& a, Bytes a_size, const Seen& b, Bytes b_size) {
  if (a_size != b_size || a.persistent != b.persistent || a.begin != b.begin || a.end != b.end ||
      a.accesses.size() != b.accesses.size())
    return false;
  for (std::size_t i = 0; i < a.accesses.size(); ++i) {
    const Access &x = a.accesses[i], &y = b.accesses[i];
    if (x.op - a.first_op != y.op - b.first_op || x.write != y.write || x.by_kernel != y.by_kernel) return false;
  }
  return true;
}

// A buffer of the model with the allocation it came from.
struct Made {
  std::uint32_t allocation;
  Seen seen;
};

// Every device allocation live in the window, ascending by allocation id.
std::vector<Made> buffers_of(const TraceFacts& facts, TraceWindow window, Model& model) {
  std::vector<Made> made;
  const std::uint32_t end = facts.first_allocation_at_or_after(window.end);
  for (std::uint32_t a = 0; a < end; ++a) {
    const AllocationFacts& info = facts.allocations()[a];
    if (info.freed_before(window.begin)) continue;  // dead before
    if (info.size == 0) continue;                   // holds no memory (a driver may return one)
    const Seen seen = seen_in(facts, a, window);
    if (seen.begin < seen.end || seen.persistent) made.push_back({a, seen});
  }
  auto by_id = [&](const Made& x, const Made& y) {
    return facts.allocations()[x.allocation].alloc_id < facts.allocations()[y.allocation].alloc_id;
  };
  if (!std::is_sorted(made.begin(), made.end(), by_id)) std::sort(made.begin(), made.end(), by_id);
  model.buffers.reserve(made.size());
  for (const Made& m : made) {
    const AllocationFacts& info = facts.allocations()[m.allocation];
    Buffer b;
    b.size = info.size;
    b.trace_alloc_id = info.alloc_id;
    // Made in an earlier iteration and freed in this one: a different allocation each time.
    const bool before = info.alloc_event < window.begin;
    b.never_swapped = info.never_swapped || (before && !m.seen.persistent);
    b.persistent = m.seen.persistent;
    b.begin = m.seen.begin;
    b.end = m.seen.end;
    b.accesses.reserve(m.seen.accesses.size());
    for (Access a : m.seen.accesses) {
      a.op -= m.seen.first_op;
      b.accesses.push_back(a);
    }
    model.buffers.push_back(std::move(b));
  }
  return made;
}

// Pins every buffer whose counterpart in `other` is missing or accessed differently: a persistent
// buffer is the same allocation there, one made in the iteration is the allocation made at the
// same ordinal among the other iteration's device allocations.
void pin_unstable(const TraceFacts& facts, TraceWindow window, std::span<const Made> made, TraceWindow other,
                  Model& model) {
  const std::uint32_t first_inside = facts.first_allocation_at_or_after(window.begin);
  const std::uint32_t other_first = facts.first_allocation_at_or_after(other.begin);
  const std::uint32_t other_end = facts.first_allocation_at_or_after(other.end);
  for (std::size_t i = 0; i < made.size(); ++i) {
    Buffer& b = model.buffers[i];
    if (b.never_swapped) continue;
    const AllocationFacts& info = facts.allocations()[made[i].allocation];
    std::uint32_t counterpart = made[i].allocation;
    if (b.persistent) {
      if (info.alloc_event >= other.begin || info.freed_before(other.end)) {  // not persistent there
        b.never_swapped = true;
        continue;
      }
    } else {
      counterpart = other_first + (made[i].allocation - first_inside);
      if (counterpart >= other_end) {
        b.never_swapped = true;
        continue;
      }
    }
    if (!same(made[i].seen, info.size, seen_in(facts, counterpart, other), facts.allocations()[counterpart].size))
      b.never_swapped = true;
  }
}

void check_window(std::size_t events, TraceWindow window) {
  if (window.begin >= window.end || window.end > events)
    throw std::invalid_argument("the iteration window is empty or outside the trace");
}

void check_has_ops(const TraceFacts& facts, TraceWindow window) {
  const auto [first, last] = op_range(facts, window);
  if (first == last) throw std::invalid_argument("the iteration holds no launch, copy or set");
}

}  // namespace

std::vector<TraceWindow> nvtx_iterations(const trace::Trace& trace, std::string_view name) {
  std::vector<TraceWindow> windows;
  constexpr std::size_t kClosed = ~std::size_t{0};
  std::size_t open = kClosed;
  int depth = 0;  // NVTX nesting since the open push: the last iteration ends at its own pop
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const trace::Record& r = trace.events[i].record;
    if (const auto* push = std::get_if<trace::RangePush>(&r)) {
      if (trace.string(push->name_id) == name) {
        if (open != kClosed) windows.push_back({open, i});
        open = i, depth = 0;
      }
      ++depth;
    } else if (std::holds_alternative<trace::RangePop>(r) && open != kClosed && --depth == 0) {
      windows.push_back({open, i + 1});
      open = kClosed;
    }
  }
  return windows;
}

Model model_from_trace(const trace::EventSource& source, TraceWindow window,
                       std::span<const TraceWindow> others) {
  check_window(source.events(), window);
  for (const TraceWindow& other : others) check_window(source.events(), other);
  std::vector<trace::Event> events;  // the window's, those its ops come from: read on the way
  const TraceFacts facts(source, window_ops_need, [&](const trace::Event& e, std::uint64_t index) {
    if (index >= window.begin && index < window.end) events.push_back(e);
  });
  check_has_ops(facts, window);
  Model model;
  add_window_ops(events, source.tables(), facts, window, model);
  const std::vector<Made> made = buffers_of(facts, window, model);
  for (const TraceWindow& other : others)
    if (other.begin != window.begin || other.end != window.end) {
      check_has_ops(facts, other);
      pin_unstable(facts, window, made, other, model);
    }
  validate(model);
  return model;
}

}  // namespace tidepool::swap
