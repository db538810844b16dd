// A small optimized run, built in code: every kind of runtime decision record (plan installed,
// pool hits and misses, a fallback, swaps out and in with and without a miss, an eviction, a
// return to recording), for the unit tests of the report's runtime-decisions section and its
// golden files (tests/report/data/decisions.*).
#pragma once

#include "analyzer/trace/trace.h"

namespace tidepool::report::testing {

// Figures the trace is built to give (see decisions_trace.cpp for the arithmetic).
struct DecisionsExpected {
  static constexpr uint64_t kMiB = 1 << 20;
  static constexpr uint64_t requested_peak = 28 * kMiB;
  static constexpr uint64_t optimized_peak = 22 * kMiB;
  static constexpr uint64_t planned_peak = 20 * kMiB;
};

trace::Trace decisions_trace();

}  // namespace tidepool::report::testing
