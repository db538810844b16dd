// The text form of the report's runtime-decisions section (runtime_decisions.h).
#pragma once

#include <string>

#include "analyzer/report/runtime_decisions.h"

namespace tidepool::report {

// Lines ending with a newline, the last one blank.
std::string runtime_decisions_text(const RuntimeDecisions& d);

}  // namespace tidepool::report
