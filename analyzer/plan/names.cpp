// Enumeration names of the plan format.
#include "analyzer/plan/names.h"

namespace tidepool::plan {

std::string_view to_string(BoundaryKind kind) {
  switch (kind) {
    case BoundaryKind::period: return "period";
    case BoundaryKind::nvtx_range: return "nvtx_range";
    case BoundaryKind::kernel: return "kernel";
  }
  return "period";
}

std::string_view to_string(BufferRef::Scope scope) {
  return scope == BufferRef::Scope::iteration ? "iteration" : "program";
}

std::optional<BoundaryKind> boundary_kind(std::string_view name) {
  for (BoundaryKind k : {BoundaryKind::period, BoundaryKind::nvtx_range, BoundaryKind::kernel})
    if (to_string(k) == name) return k;
  return std::nullopt;
}

std::optional<BufferRef::Scope> buffer_scope(std::string_view name) {
  for (BufferRef::Scope s : {BufferRef::Scope::iteration, BufferRef::Scope::program})
    if (to_string(s) == name) return s;
  return std::nullopt;
}

}  // namespace tidepool::plan
