// Pairs CUPTI's external-correlation and activity records.
#include "intercept/cupti_correlation.h"

namespace tidepool::intercept {

trace::DeviceTiming CuptiCorrelation::timing(uint64_t op_id, const Span& span) const {
  const uint64_t start = span.start_ns > origin_ns_ ? span.start_ns - origin_ns_ : 0;
  const uint64_t end = span.end_ns > origin_ns_ ? span.end_ns - origin_ns_ : 0;
  return {op_id, start, end > start ? end : start};
}

std::optional<trace::DeviceTiming> CuptiCorrelation::on_external(uint32_t correlation, uint64_t op_id) {
  const std::lock_guard lock(mutex_);
  if (const auto it = spans_.find(correlation); it != spans_.end()) {
    const Span span = it->second;
    spans_.erase(it);
    return timing(op_id, span);
  }
  if (ops_.size() >= kMaxUnmatched) ops_.clear();
  ops_[correlation] = op_id;
  return std::nullopt;
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

size_t CuptiCorrelation::unmatched() const {
  const std::lock_guard lock(mutex_);
  return ops_.size() + spans_.size();
}

}  // namespace tidepool::intercept
