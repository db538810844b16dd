// The JSON form of the report's runtime-decisions section (schema in docs/report-format.md).
#pragma once

#include <nlohmann/json.hpp>

#include "analyzer/report/runtime_decisions.h"

namespace tidepool::report {

// The `runtime_decisions` object of a process.
nlohmann::ordered_json runtime_decisions_json(const RuntimeDecisions& d);
// The `runtime` object of a process: summary counters, all 0 when there were no decisions.
nlohmann::ordered_json runtime_totals_json(const std::optional<RuntimeDecisions>& d);

}  // namespace tidepool::report
