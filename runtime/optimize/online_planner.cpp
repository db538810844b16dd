// Reading back the trace and planning from it.
#include "runtime/optimize/online_planner.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/plan/iteration_choice.h"

namespace tidepool::runtime::optimize {
namespace {

constexpr size_t kStableIterations = 3;
constexpr size_t kIdenticalIterations = 2;

uint64_t lead_of(const iteration::EventStream& stream, iteration::Range range) {
  uint64_t lead = 0;
  for (size_t i = range.begin; i < range.end; ++i) {
    const iteration::EventKind kind = stream.events[i].kind;
    if (kind == iteration::EventKind::alloc || kind == iteration::EventKind::launch) break;
    ++lead;
  }
  return lead;
}

bool steady(const iteration::EventStream& stream, iteration::Range range) {
  bool launches = false;
  int64_t net_bytes = 0;
  for (size_t i = range.begin; i < range.end; ++i) {
    const iteration::Event& e = stream.events[i];
    launches |= e.kind == iteration::EventKind::launch;
    if (e.kind == iteration::EventKind::alloc) net_bytes += static_cast<int64_t>(e.bytes);
    if (e.kind == iteration::EventKind::free) net_bytes -= static_cast<int64_t>(e.bytes);
  }
  return launches && net_bytes == 0;
}

}  // namespace

std::optional<OnlinePlan> plan_online(const PlanningJob& job, WindowReader& reader) {
  const TraceWindow window = reader.read();
  const iteration::EventStream stream = iteration::event_stream(window.trace);
  iteration::Detection detection;
  try {
    detection = plan::find_iterations(stream, job.request.iteration);
  } catch (const std::runtime_error&) {
    return std::nullopt;  // nothing repeats yet
  }
  if (detection.iterations.size() < kStableIterations || detection.exact < kIdenticalIterations)
    return std::nullopt;
  // The program must still be repeating (at most one iteration's worth of events after the last;
  // at exit, what follows is its tear-down), in a steady state: an iteration launches work and
  // frees as much as it allocates (a set-up loop that allocates and fills buffers is not one).
  if (!job.at_exit && stream.events.size() - detection.iterations.back().end > detection.period)
    return std::nullopt;
  if (!steady(stream, detection.reference_iteration())) return std::nullopt;
  OnlinePlan out;
  out.plan = plan::plan_from_trace(window.trace, job.trace_path, job.request);
  out.lead_events = lead_of(stream, detection.reference_iteration());
  // Stream positions count the carried allocations first; the runtime counted them before the cut.
  const uint64_t end = detection.iterations.back().end;
  if (end < window.carried_allocations) return std::nullopt;
  out.next_boundary = job.events_at_cut + end - window.carried_allocations;
  out.first_boundary = job.events_at_cut + detection.first_boundary() -
                       std::min<uint64_t>(detection.first_boundary(), window.carried_allocations);
  return out;
}

uint64_t fingerprint_value(const std::string& text) {
  constexpr std::string_view kPrefix = "fnv1a64:";
  if (!text.starts_with(kPrefix)) return 0;
  uint64_t value = 0;
  const char* begin = text.data() + kPrefix.size();
  std::from_chars(begin, text.data() + text.size(), value, 16);
  return value;
}

uint64_t lead_events_of(const plan::Plan& plan) {
  if (!plan.pool || plan.iteration.anchor.empty() ||
      plan.iteration.anchor.front().kind != plan::AnchorEvent::Kind::alloc)
    return 0;
  for (const plan::Slot& slot : plan.pool->slots) {
    if (slot.ordinal == 0) return slot.begin;
  }
  return 0;
}

}  // namespace tidepool::runtime::optimize
