// A segment tree over a sequence of values with range add and whole-range maximum, both
// O(log n): the planners' running memory profile per op.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tidepool::swap {

class RangeMax {
 public:
  explicit RangeMax(std::span<const std::int64_t> values);
  // Adds delta to values [first, last) (nothing when first >= last).
  void add(std::size_t first, std::size_t last, std::int64_t delta);
  std::int64_t max() const { return max_[1]; }
  // The first index holding the maximum.
  std::size_t argmax() const;
  // The first index in [first, n) whose value exceeds limit, or n.
  std::size_t first_above(std::int64_t limit, std::size_t first = 0) const;
  // The last index whose value exceeds limit, or n when none does.
  std::size_t last_above(std::int64_t limit) const;
  std::int64_t at(std::size_t index) const;
  std::size_t size() const { return n_; }

 private:
  void add(std::size_t node, std::size_t lo, std::size_t hi, std::size_t first, std::size_t last,
           std::int64_t delta);
  std::size_t first_above(std::size_t node, std::size_t lo, std::size_t hi, std::int64_t limit,
                          std::size_t first, std::int64_t pending) const;
  std::size_t n_;
  std::vector<std::int64_t> max_, lazy_;
};

}  // namespace tidepool::swap
