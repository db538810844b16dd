// The time axis of a problem compressed into sections (as minimalloc's sweep does): a section is
// the set of items live just before some item's interval ends, so two items are live at a common
// time exactly when they share a section, and the largest section total is the lower bound.
// Each item's intervals map to disjoint ranges of section indices.
#pragma once

#include <span>
#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// Sections [begin, end).
struct SectionRange {
  int begin = 0;
  int end = 0;
};

class Timeline {
 public:
  // The problem must be valid (see validate).
  explicit Timeline(const Problem& problem);

  int section_count() const { return static_cast<int>(section_total_.size()); }
  std::span<const SectionRange> ranges(std::size_t item) const {
    return {ranges_.data() + first_range_[item], ranges_.data() + first_range_[item + 1]};
  }
  // Total size of the items in each section.
  std::span<const Bytes> section_totals() const { return section_total_; }
  // The first section and one past the last section of an item.
  int first_section(std::size_t item) const { return ranges(item).front().begin; }
  int last_section_end(std::size_t item) const { return ranges(item).back().end; }
  // The largest section total: the max-live lower bound.
  Bytes peak() const;

 private:
  std::vector<SectionRange> ranges_;
  std::vector<std::size_t> first_range_;
  std::vector<Bytes> section_total_;
};

}  // namespace tidepool::packing
