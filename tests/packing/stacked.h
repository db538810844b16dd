// A test packing for any problem: every item on top of the one before, each aligned. Valid, and as
// high as the sizes and alignment gaps add up: where lowering and packing tests begin.
#pragma once

#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

inline std::vector<Bytes> stacked_offsets(const Problem& problem) {
  std::vector<Bytes> offsets;
  Bytes top = 0;
  for (const Item& item : problem.items) {
    offsets.push_back(align_up(top, item.alignment));
    top = offsets.back() + item.size;
  }
  return offsets;
}

}  // namespace tidepool::packing
