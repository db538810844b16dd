// A histogram of device allocation sizes in power-of-two buckets, counted event by event.
#pragma once

#include <array>
#include <vector>

#include "analyzer/report/report.h"
#include "analyzer/trace/trace.h"

namespace tidepool::report {

class SizeHistogram {
 public:
  // Only device allocations (not captured into a graph) count.
  void add(const trace::Event& event);

  // Non-empty buckets, smallest first: bucket k holds sizes in [2^k, 2^(k+1)); sizes 0 and 1 share
  // the first bucket (min_bytes 0).
  std::vector<SizeBucket> buckets() const;

 private:
  std::array<SizeBucket, 64> buckets_{};
};

}  // namespace tidepool::report
