// A min-tree over sections of the earliest end of an unplaced item that starts there: the tiling
// search's completion (tiling_search.h) uses it to find the next section where something fits.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

namespace tidepool::packing {

class EarliestEnds {
 public:
  explicit EarliestEnds(int sections) {
    while (leaves_ < sections) leaves_ *= 2;
    earliest_.assign(2 * leaves_, kNoEnd);
  }
  void set(int section, int end) {
    int node = section + leaves_;
    earliest_[node] = end;
    for (node /= 2; node >= 1; node /= 2) earliest_[node] = std::min(earliest_[2 * node], earliest_[2 * node + 1]);
  }
  // The first section in [from, to) whose earliest end is at most `bound`; `to` if none.
  int first(int from, int to, int bound) const {
    const int found = first(1, 0, leaves_, from, to, bound);
    return found < 0 ? to : found;
  }
  static constexpr int kNoEnd = std::numeric_limits<int>::max();

 private:
  int first(int node, int lo, int hi, int from, int to, int bound) const {
    if (hi <= from || to <= lo || earliest_[node] > bound) return -1;
    if (hi - lo == 1) return lo;
    const int mid = (lo + hi) / 2;
    const int left = first(2 * node, lo, mid, from, to, bound);
    return left >= 0 ? left : first(2 * node + 1, mid, hi, from, to, bound);
  }
  int leaves_ = 1;
  std::vector<int> earliest_;
};

}  // namespace tidepool::packing
