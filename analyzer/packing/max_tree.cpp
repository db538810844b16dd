// The segment tree of MaxTree, bottom up (no recursion). A raise is recorded on the nodes that
// cover its range (max_ and raise_) and on the ancestors of its two end leaves (max_ only): every
// node whose range meets it is one of those or below one. A pending raise is never pushed down:
// a query takes the raises recorded on the ancestors of its own end leaves instead, which are the
// only nodes above its covering nodes.
#include "analyzer/packing/max_tree.h"

#include <algorithm>

namespace tidepool::packing {

MaxTree::MaxTree(int size) {
  while (leaves_ < size) leaves_ *= 2;
  max_.assign(2 * leaves_, 0);
  raise_.assign(2 * leaves_, 0);
}

void MaxTree::raise(SectionRange range, Bytes value) {
  if (range.begin >= range.end) return;
  int lo = range.begin + leaves_;
  int hi = range.end + leaves_;
  for (int node = lo >> 1; node >= 1; node >>= 1) max_[node] = std::max(max_[node], value);
  for (int node = (hi - 1) >> 1; node >= 1; node >>= 1) max_[node] = std::max(max_[node], value);
  for (; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) raise_whole(lo++, value);
    if (hi & 1) raise_whole(--hi, value);
  }
}

Bytes MaxTree::max(SectionRange range) const {
  if (range.begin >= range.end) return 0;
  int lo = range.begin + leaves_;
  int hi = range.end + leaves_;
  Bytes best = 0;
  for (int node = lo >> 1; node >= 1; node >>= 1) best = std::max(best, raise_[node]);
  for (int node = (hi - 1) >> 1; node >= 1; node >>= 1) best = std::max(best, raise_[node]);
  for (; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) best = std::max(best, max_[lo++]);
    if (hi & 1) best = std::max(best, max_[--hi]);
  }
  return best;
}

void MaxTree::raise_whole(int node, Bytes value) {
  max_[node] = std::max(max_[node], value);
  raise_[node] = std::max(raise_[node], value);
}

}  // namespace tidepool::packing
