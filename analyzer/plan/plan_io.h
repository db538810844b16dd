// Plan files: JSON text in and out. The reader accepts only what docs/plan-format.md describes
// and fails with PlanError, one line naming the field: "plan.json: pool.slots[3].offset: not a
// multiple of the alignment 256".
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "analyzer/plan/plan.h"

namespace tidepool::plan {

struct PlanError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string to_json_text(const Plan& plan);  // pretty-printed, ends with a newline
// `origin` prefixes error messages (a path, or "plan").
Plan parse_plan(std::string_view text, std::string_view origin = "plan");

Plan read_plan(const std::filesystem::path& path);
void write_plan(const Plan& plan, const std::filesystem::path& path);  // PlanError when it cannot

}  // namespace tidepool::plan
