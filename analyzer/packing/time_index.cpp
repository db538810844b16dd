// The segment tree of TimeIndex.
#include "analyzer/packing/time_index.h"

#include <algorithm>

namespace tidepool::packing {

TimeIndex::TimeIndex(const Timeline& timeline, std::size_t item_count)
    : timeline_(timeline), seen_(item_count, 0) {
  while (leaves_ < timeline.section_count()) leaves_ *= 2;
  items_at_.resize(2 * leaves_);
  in_subtree_.resize(2 * leaves_, 0);
}

void TimeIndex::insert(std::size_t item) {
  for (const SectionRange range : timeline_.ranges(item)) insert(1, 0, leaves_, range, item);
}

void TimeIndex::insert(int node, int lo, int hi, SectionRange range, std::size_t item) {
  ++in_subtree_[node];
  if (range.begin <= lo && hi <= range.end) {
    items_at_[node].push_back(static_cast<std::uint32_t>(item));
    return;
  }
  const int mid = (lo + hi) / 2;
  if (range.begin < mid) insert(2 * node, lo, mid, range, item);
  if (range.end > mid) insert(2 * node + 1, mid, hi, range, item);
}

void TimeIndex::overlapping(std::size_t item, std::vector<std::size_t>& out) {
  if (++stamp_ == 0) {  // the stamps wrapped around: forget them all
    std::fill(seen_.begin(), seen_.end(), 0);
    stamp_ = 1;
  }
  seen_[item] = stamp_;
  for (const SectionRange range : timeline_.ranges(item)) collect(1, 0, leaves_, range, out);
}

void TimeIndex::collect(int node, int lo, int hi, SectionRange range, std::vector<std::size_t>& out) {
  if (in_subtree_[node] == 0) return;
  for (const std::uint32_t other : items_at_[node]) {
    if (seen_[other] != stamp_) {
      seen_[other] = stamp_;
      out.push_back(other);
    }
  }
  if (hi - lo == 1) return;
  const int mid = (lo + hi) / 2;
  if (range.begin < mid) collect(2 * node, lo, mid, range, out);
  if (range.end > mid) collect(2 * node + 1, mid, hi, range, out);
}

}  // namespace tidepool::packing
