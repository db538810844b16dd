// Matches CUPTI's activity records with recorded operations (--cupti). Before each launch, copy or
// set, tidepool pushes the operation's op id as an external correlation id; CUPTI then delivers,
// in any order and possibly in different buffers, an external-correlation record (its own
// correlation id -> our op id) and the activity record of the kernel, copy or set (its
// correlation id, start and end). Each pair that meets becomes one DeviceTiming, with times made
// relative to an origin (CUPTI's clock when timing began). Plain C++: unit-tested without CUPTI.
//
// A program on the CUDA runtime reaches the driver from inside a runtime call: CUPTI then writes
// no driver API record, so no external-correlation record either, and the kernel's correlation id
// is the runtime call's. So each operation's thread and CUPTI time are noted too (on_call), and a
// runtime call's API record (its thread, start and end) stands for the external-correlation
// record of the one operation that began inside it; a call with several inside is not guessed at.
#pragma once

#include <cstdint>
#include <deque>
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
  // Our operation `op_id` was made on `thread` at CUPTI time at_ns.
  void on_call(uint32_t thread, uint64_t at_ns, uint64_t op_id);
  // A runtime API call with correlation id `correlation` ran on `thread` from start_ns to end_ns.
  std::optional<trace::DeviceTiming> on_runtime_call(uint32_t correlation, uint32_t thread, uint64_t start_ns,
                                                     uint64_t end_ns);

  // Halves waiting for their other half. Some never meet one (the activity of work tidepool did
  // not time, such as a graph's kernels), so each table is emptied when it reaches kMaxUnmatched;
  // so are the calls noted, which a program on the driver API alone never has matched.
  size_t unmatched() const;
  static constexpr size_t kMaxUnmatched = 1 << 16;

 private:
  struct Span {
    uint64_t start_ns;
    uint64_t end_ns;
  };
  struct Call {
    uint64_t at_ns;
    uint64_t op_id;
  };
  trace::DeviceTiming timing(uint64_t op_id, const Span& span) const;
  std::optional<trace::DeviceTiming> external_locked(uint32_t correlation, uint64_t op_id);

  uint64_t origin_ns_;
  mutable std::mutex mutex_;
  std::unordered_map<uint32_t, uint64_t> ops_;  // correlation -> op id, activity not seen yet
  std::unordered_map<uint32_t, Span> spans_;    // correlation -> times, op id not seen yet
  std::unordered_map<uint32_t, std::deque<Call>> calls_;  // thread -> operations in time order
  size_t call_count_ = 0;
};

}  // namespace tidepool::intercept
