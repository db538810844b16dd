// The plan format's names for its enumerations, shared by the writer and the reader.
#pragma once

#include <optional>
#include <string_view>

#include "analyzer/plan/plan.h"

namespace tidepool::plan {

inline constexpr std::string_view kFormatName = "tidepool-plan";

std::string_view to_string(BoundaryKind kind);
std::string_view to_string(BufferRef::Scope scope);
std::optional<BoundaryKind> boundary_kind(std::string_view name);
std::optional<BufferRef::Scope> buffer_scope(std::string_view name);

}  // namespace tidepool::plan
