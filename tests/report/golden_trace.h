// The small trace stored in tests/report/data/golden.trace, built in code so that the stored file
// can be checked against it (and regenerated: TIDEPOOL_REGENERATE_GOLDEN=1).
#pragma once

#include "analyzer/trace/trace.h"

namespace tidepool::report::testing {

trace::Trace golden_trace();

}  // namespace tidepool::report::testing
