// Finding and describing the iteration to plan for.
#include "analyzer/plan/iteration_choice.h"

#include <stdexcept>

namespace tidepool::plan {

iteration::Detection find_iterations(const iteration::EventStream& stream, const IterationRequest& request) {
  switch (request.boundary) {
    case BoundaryKind::nvtx_range: return iteration::detect_by_nvtx_range(stream, request.name);
    case BoundaryKind::kernel: return iteration::detect_by_kernel(stream, request.name);
    case BoundaryKind::period: break;
  }
  auto detection = iteration::detect_by_period(stream);
  if (!detection)
    throw std::runtime_error(
        "no repeating iteration found in the trace; name its boundary with --iteration-marker or --iteration-kernel");
  return *std::move(detection);
}

IterationDescription describe(const iteration::EventStream& stream, const iteration::Detection& detection) {
  IterationDescription d;
  switch (detection.kind) {
    case iteration::BoundaryKind::period: d.boundary = BoundaryKind::period; break;
    case iteration::BoundaryKind::nvtx_range: d.boundary = BoundaryKind::nvtx_range; break;
    case iteration::BoundaryKind::kernel: d.boundary = BoundaryKind::kernel; break;
  }
  d.name = detection.boundary_name;
  const iteration::Range range = detection.reference_iteration();
  d.events = range.size();
  for (std::size_t i = range.begin; i < range.end; ++i) {
    const iteration::Event& e = stream.events[i];
    if (e.kind == iteration::EventKind::alloc) {
      ++d.allocations;
      if (d.anchor.size() < kAnchorEvents) d.anchor.push_back({AnchorEvent::Kind::alloc, e.bytes, {}});
    } else if (e.kind == iteration::EventKind::launch || e.kind == iteration::EventKind::transfer) {
      ++d.operations;
      if (e.kind == iteration::EventKind::launch && d.anchor.size() < kAnchorEvents)
        d.anchor.push_back({AnchorEvent::Kind::kernel, 0, stream.names[e.name]});
    }
  }
  d.iterations_seen = detection.iterations.size();
  d.regularity = detection.regularity();
  return d;
}

}  // namespace tidepool::plan
