// A histogram of device allocation sizes in power-of-two buckets.
#pragma once

#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

// Non-empty buckets, smallest first: bucket k holds sizes in [2^k, 2^(k+1)); sizes 0 and 1 share
// the first bucket (min_bytes 0).
std::vector<SizeBucket> size_histogram(const trace::Trace& trace);

}  // namespace tidepool::report
