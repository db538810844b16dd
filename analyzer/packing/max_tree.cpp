// The segment tree of MaxTree. A pending raise on a node is never pushed down: a query takes the
// largest pending raise on the way down instead.
#include "analyzer/packing/max_tree.h"

#include <algorithm>

namespace tidepool::packing {

MaxTree::MaxTree(int size) {
  while (leaves_ < size) leaves_ *= 2;
  max_.assign(2 * leaves_, 0);
  raise_.assign(2 * leaves_, 0);
}

void MaxTree::raise(SectionRange range, Bytes value) { raise(1, 0, leaves_, range, value); }

Bytes MaxTree::max(SectionRange range) const { return max(1, 0, leaves_, range); }

void MaxTree::raise(int node, int lo, int hi, SectionRange range, Bytes value) {
  max_[node] = std::max(max_[node], value);
  if (range.begin <= lo && hi <= range.end) {
    raise_[node] = std::max(raise_[node], value);
    return;
  }
  const int mid = (lo + hi) / 2;
  if (range.begin < mid) raise(2 * node, lo, mid, range, value);
  if (range.end > mid) raise(2 * node + 1, mid, hi, range, value);
}

Bytes MaxTree::max(int node, int lo, int hi, SectionRange range) const {
  if (range.begin <= lo && hi <= range.end) return max_[node];
  Bytes best = raise_[node];
  const int mid = (lo + hi) / 2;
  if (range.begin < mid) best = std::max(best, max(2 * node, lo, mid, range));
  if (range.end > mid) best = std::max(best, max(2 * node + 1, mid, hi, range));
  return best;
}

}  // namespace tidepool::packing
