// An index of placed items by the sections they span (a segment tree whose nodes list the items
// that cover them canonically), answering "which placed items share a section with this one?"
// in time proportional to the sections in the query range and the answer.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

class TimeIndex {
 public:
  TimeIndex(const Timeline& timeline, std::size_t item_count);

  void insert(std::size_t item);
  // Appends to `out` each inserted item that shares a section with `item`, once.
  void overlapping(std::size_t item, std::vector<std::size_t>& out);

 private:
  void insert(int node, int lo, int hi, SectionRange range, std::size_t item);
  void collect(int node, int lo, int hi, SectionRange range, std::vector<std::size_t>& out);

  const Timeline& timeline_;
  int leaves_ = 1;
  std::vector<std::vector<std::uint32_t>> items_at_;  // items covering each node canonically
  std::vector<std::uint32_t> in_subtree_;               // how many entries below each node
  std::vector<std::uint32_t> seen_;                     // per item: query stamp
  std::uint32_t stamp_ = 0;
};

}  // namespace tidepool::packing
