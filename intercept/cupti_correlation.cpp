// Pairs CUPTI's external-correlation (or runtime API) records with its activity records.
#include "intercept/cupti_correlation.h"

namespace tidepool::intercept {

trace::DeviceTiming CuptiCorrelation::timing(uint64_t op_id, const Span& span) const {
  const uint64_t start = span.start_ns > origin_ns_ ? span.start_ns - origin_ns_ : 0;
  const uint64_t end = span.end_ns > origin_ns_ ? span.end_ns - origin_ns_ : 0;
  return {op_id, start, end > start ? end : start};
}

std::optional<trace::DeviceTiming> CuptiCorrelation::external_locked(uint32_t correlation, uint64_t op_id) {
  if (const auto it = spans_.find(correlation); it != spans_.end()) {
    const Span span = it->second;
    spans_.erase(it);
    return timing(op_id, span);
  }
  if (ops_.size() >= kMaxUnmatched) ops_.clear();
  ops_[correlation] = op_id;
  return std::nullopt;
}

std::optional<trace::DeviceTiming> CuptiCorrelation::on_external(uint32_t correlation, uint64_t op_id) {
  const std::lock_guard lock(mutex_);
  return external_locked(correlation, op_id);
}

std::optional<trace::DeviceTiming> CuptiCorrelation::on_activity(uint32_t correlation, uint64_t start_ns,
                                                                uint64_t end_ns) {
  const std::lock_guard lock(mutex_);
  if (const auto it = ops_.find(correlation); it != ops_.end()) {
    const uint64_t op_id = it->second;
    ops_.erase(it);
    return timing(op_id, {start_ns, end_ns});
  }
  if (spans_.size() >= kMaxUnmatched) spans_.clear();
  spans_[correlation] = {start_ns, end_ns};
  return std::nullopt;
}

void CuptiCorrelation::on_call(uint32_t thread, uint64_t at_ns, uint64_t op_id) {
  const std::lock_guard lock(mutex_);
  if (call_count_ >= kMaxUnmatched) {
    calls_.clear();
    call_count_ = 0;
  }
  calls_[thread].push_back({at_ns, op_id});
  ++call_count_;
}

std::optional<trace::DeviceTiming> CuptiCorrelation::on_runtime_call(uint32_t correlation, uint32_t thread,
                                                                     uint64_t start_ns, uint64_t end_ns) {
  const std::lock_guard lock(mutex_);
  const auto it = calls_.find(thread);
  if (it == calls_.end()) return std::nullopt;
  // A thread's runtime calls come in order and do not overlap: operations noted up to this call's
  // end were made inside it or before it (outside any runtime call), and are done with.
  std::deque<Call>& calls = it->second;
  std::optional<uint64_t> inside;
  size_t count_inside = 0;
  while (!calls.empty() && calls.front().at_ns <= end_ns) {
    if (calls.front().at_ns >= start_ns) {
      inside = calls.front().op_id;
      ++count_inside;
    }
    calls.pop_front();
    --call_count_;
  }
  if (calls.empty()) calls_.erase(it);
  if (count_inside != 1) return std::nullopt;
  return external_locked(correlation, *inside);
}

size_t CuptiCorrelation::unmatched() const {
  const std::lock_guard lock(mutex_);
  return ops_.size() + spans_.size() + call_count_;
}

}  // namespace tidepool::intercept
