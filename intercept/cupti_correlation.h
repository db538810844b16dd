// Matches CUPTI's activity records with recorded operations (--cupti). Before each launch, copy or
// set, tidepool pushes the operation's op id as an external correlation id; CUPTI then delivers,
// in any order and possibly in different buffers, an external-correlation record (its own
// correlation id -> our op id) and the activity record of the kernel, copy or set (its
// correlation id, start and end). Each pair that meets becomes one DeviceTiming, with times made
// relative to an origin (CUPTI's clock when timing began). Plain C++: unit-tested without CUPTI.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "analyzer/trace/format.h"

namespace tidepool::intercept {

class CuptiCorrelation {
 public:
  explicit CuptiCorrelation(uint64_t origin_ns) : origin_ns_(origin_ns) {}

  // CUPTI's correlation id `correlation` belongs to our operation `op_id`.
  std::optional<trace::DeviceTiming> on_external(uint32_t correlation, uint64_t op_id);
  // The operation of CUPTI's correlation id `correlation` ran from start_ns to end_ns (CUPTI clock).
  std::optional<trace::DeviceTiming> on_activity(uint32_t correlation, uint64_t start_ns, uint64_t end_ns);

  // Halves waiting for their other half. Some never meet one (the activity of work tidepool did
  // not time, such as a graph's kernels), so each table is emptied when it reaches kMaxUnmatched.
  size_t unmatched() const;
  static constexpr size_t kMaxUnmatched = 1 << 16;

 private:
  struct Span {
    uint64_t start_ns;
    uint64_t end_ns;
  };
  trace::DeviceTiming timing(uint64_t op_id, const Span& span) const;

  uint64_t origin_ns_;
  mutable std::mutex mutex_;
  std::unordered_map<uint32_t, uint64_t> ops_;  // correlation -> op id, activity not seen yet
  std::unordered_map<uint32_t, Span> spans_;    // correlation -> times, op id not seen yet
};

}  // namespace tidepool::intercept
