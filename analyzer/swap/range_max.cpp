// The range-add / maximum segment tree (see range_max.h).
#include "analyzer/swap/range_max.h"

#include <algorithm>
#include <limits>

namespace tidepool::swap {
namespace {
constexpr std::int64_t kLowest = std::numeric_limits<std::int64_t>::min() / 4;
}

RangeMax::RangeMax(std::span<const std::int64_t> values) : n_(values.size()) {
  std::size_t leaves = 1;
  while (leaves < std::max<std::size_t>(n_, 1)) leaves *= 2;
  max_.assign(2 * leaves, kLowest);
  lazy_.assign(2 * leaves, 0);
  for (std::size_t i = 0; i < n_; ++i) max_[leaves + i] = values[i];
  for (std::size_t i = leaves - 1; i >= 1; --i) max_[i] = std::max(max_[2 * i], max_[2 * i + 1]);
}

void RangeMax::add(std::size_t first, std::size_t last, std::int64_t delta) {
  last = std::min(last, n_);
  if (first < last) add(1, 0, max_.size() / 2, first, last, delta);
}

void RangeMax::add(std::size_t node, std::size_t lo, std::size_t hi, std::size_t first,
                   std::size_t last, std::int64_t delta) {
  if (last <= lo || hi <= first) return;
  if (first <= lo && hi <= last) {
    max_[node] += delta;
    lazy_[node] += delta;
    return;
  }
  const std::size_t mid = (lo + hi) / 2;
  add(2 * node, lo, mid, first, last, delta);
  add(2 * node + 1, mid, hi, first, last, delta);
  max_[node] = std::max(max_[2 * node], max_[2 * node + 1]) + lazy_[node];
}

std::size_t RangeMax::first_above(std::size_t node, std::size_t lo, std::size_t hi,
                                  std::int64_t limit, std::size_t first, std::int64_t pending) const {
  if (hi <= first || max_[node] + pending <= limit) return n_;
  if (hi - lo == 1) return lo < n_ ? lo : n_;
  const std::size_t mid = (lo + hi) / 2;
  pending += lazy_[node];
  const std::size_t left = first_above(2 * node, lo, mid, limit, first, pending);
  return left != n_ ? left : first_above(2 * node + 1, mid, hi, limit, first, pending);
}

std::size_t RangeMax::first_above(std::int64_t limit, std::size_t first) const {
  return first_above(1, 0, max_.size() / 2, limit, first, 0);
}

std::size_t RangeMax::argmax() const { return n_ == 0 ? 0 : first_above(max() - 1); }

std::int64_t RangeMax::at(std::size_t index) const {
  std::size_t node = 1, lo = 0, hi = max_.size() / 2;
  std::int64_t sum = 0;
  while (hi - lo > 1) {
    sum += lazy_[node];
    const std::size_t mid = (lo + hi) / 2;
    if (index < mid) node = 2 * node, hi = mid;
    else node = 2 * node + 1, lo = mid;
  }
  return sum + max_[node];
}

std::size_t RangeMax::last_above(std::int64_t limit) const {
  // Walk down preferring the right child.
  if (n_ == 0 || max_[1] <= limit) return n_;
  std::size_t node = 1, lo = 0, hi = max_.size() / 2;
  std::int64_t pending = 0;
  while (hi - lo > 1) {
    pending += lazy_[node];
    const std::size_t mid = (lo + hi) / 2;
    if (max_[2 * node + 1] + pending > limit) node = 2 * node + 1, lo = mid;
    else node = 2 * node, hi = mid;
  }
  return lo;
}

}  // namespace tidepool::swap
