// The index of unplaced items by start section (see unplaced_by_start.h).
#include "analyzer/packing/unplaced_by_start.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tidepool::packing {
namespace {

constexpr int kNoEnd = std::numeric_limits<int>::max();

}  // namespace

UnplacedByStart::UnplacedByStart(const Timeline& timeline, std::span<const std::uint32_t> rank) {
  const std::size_t n = rank.size();
  const int sections = timeline.section_count();
  std::vector<int> end(n);
  for (std::size_t i = 0; i < n; ++i) end[i] = timeline.last_section_end(i);
  sorted_.resize(n);
  std::iota(sorted_.begin(), sorted_.end(), 0);
  std::ranges::sort(sorted_, [&](std::uint32_t a, std::uint32_t b) {
    const int start_a = timeline.first_section(a);
    const int start_b = timeline.first_section(b);
    if (start_a != start_b) return start_a < start_b;
    if (end[a] != end[b]) return end[a] > end[b];
    return rank[a] < rank[b];
  });
  sorted_end_.resize(n);
  for (std::size_t k = 0; k < n; ++k) sorted_end_[k] = end[sorted_[k]];
  group_.assign(sections + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++group_[timeline.first_section(i) + 1];
  for (int s = 0; s < sections; ++s) group_[s + 1] += group_[s];
  next_.resize(n + 1);
  std::iota(next_.begin(), next_.end(), 0);
  before_.resize(n + 1);
  std::iota(before_.begin(), before_.end(), 0);
  left_ = n;
  while (leaves_ < sections) leaves_ *= 2;
  earliest_.assign(2 * leaves_, kNoEnd);
  for (int s = 0; s < sections; ++s) update_earliest(s);
}

std::size_t UnplacedByStart::next_unplaced(std::size_t position) {
  while (next_[position] != position) {
    next_[position] = next_[next_[position]];
    position = next_[position];
  }
  return position;
}

std::size_t UnplacedByStart::last_unplaced_before(std::size_t position) {
  while (before_[position] != position) {
    before_[position] = before_[before_[position]];
    position = before_[position];
  }
  return position;
}

std::optional<std::uint32_t> UnplacedByStart::take_fitting(int start, int bound) {
  const auto group_begin = sorted_end_.begin() + static_cast<std::ptrdiff_t>(group_[start]);
  const auto group_end = sorted_end_.begin() + static_cast<std::ptrdiff_t>(group_[start + 1]);
  const auto first_fit =
      std::partition_point(group_begin, group_end, [&](int end) { return end > bound; });
  const std::size_t position =
      next_unplaced(static_cast<std::size_t>(first_fit - sorted_end_.begin()));
  if (position >= group_[start + 1]) return std::nullopt;
  next_[position] = position + 1;
  before_[position + 1] = position;
  --left_;
  update_earliest(start);
  return sorted_[position];
}

void UnplacedByStart::update_earliest(int start) {
  // Items of a group go by end descending: the last unplaced one ends earliest.
  const std::size_t last = last_unplaced_before(group_[start + 1]);
  int node = start + leaves_;
  earliest_[node] = last > group_[start] ? sorted_end_[last - 1] : kNoEnd;
  for (node /= 2; node >= 1; node /= 2) earliest_[node] = std::min(earliest_[2 * node], earliest_[2 * node + 1]);
}

int UnplacedByStart::first_start_ending_by(int from, int to, int bound) const {
  if (from >= to) return to;
  // Up from the leaf of `from` until a right sibling holds an end by `bound` (none past `to`
  // matters), then down to its first such leaf: O(log distance), the queries being short ranges.
  int node = from + leaves_;
  if (earliest_[node] <= bound) return from;
  int width = 1;  // leaves under `node`
  while (true) {
    if (node % 2 == 0) {
      const int sibling = node + 1;
      if ((sibling * width) - leaves_ >= to) return to;
      if (earliest_[sibling] <= bound) {
        node = sibling;
        break;
      }
    }
    node /= 2;
    width *= 2;
    if (node == 1) return to;
  }
  while (node < leaves_) node = earliest_[2 * node] <= bound ? 2 * node : 2 * node + 1;
  return std::min(node - leaves_, to);
}

}  // namespace tidepool::packing
