// A segment tree over sections holding a floor per section (all 0 at first): raise a range of
// floors to at least a value, and ask for the highest floor in a range (0 for an empty range),
// both in O(log sections).
#pragma once

#include <vector>

#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

class MaxTree {
 public:
  explicit MaxTree(int size);
  void raise(SectionRange range, Bytes value);
  Bytes max(SectionRange range) const;

 private:
  void raise_whole(int node, Bytes value);

  int leaves_ = 1;
  std::vector<Bytes> max_;    // the highest floor below each node
  std::vector<Bytes> raise_;  // a raise that applies to the whole node (lazy)
};

}  // namespace tidepool::packing
