// The unplaced items of the skyline placement, indexed by the section where their hull starts:
// take the item that starts at a section and reaches furthest without passing a bound, and find
// the first section of a range where an item starts that ends by a bound. Flat arrays with
// union-find skips over taken items and a min-tree of the earliest end per start section, so
// each operation costs about O(log items).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

class UnplacedByStart {
 public:
  // rank[i] breaks ties between items with the same start and end (smaller first).
  UnplacedByStart(const Timeline& timeline, std::span<const std::uint32_t> rank);

  bool empty() const { return left_ == 0; }
  std::size_t size() const { return left_; }
  // Removes and returns the unplaced item that starts at `start` and ends latest, by `bound`.
  std::optional<std::uint32_t> take_fitting(int start, int bound);
  // The first section in [from, to) where an unplaced item starts that ends by `bound`; `to` if
  // there is none.
  int first_start_ending_by(int from, int to, int bound) const;

 private:
  std::size_t next_unplaced(std::size_t position);      // the first at or after it (or the end)
  std::size_t last_unplaced_before(std::size_t position);  // position + 1 of the last before it; 0 if none
  void update_earliest(int start);

  std::vector<std::uint32_t> sorted_;  // by (start, end descending, rank)
  std::vector<int> sorted_end_;        // per position in sorted_: one past its item's last section
  std::vector<std::size_t> group_;     // per section: where its items begin in sorted_
  std::vector<std::size_t> next_;      // union-find: next_[k] leads to the first unplaced >= k
  std::vector<std::size_t> before_;    // union-find: before_[k] leads to 1 + the last unplaced < k
  std::size_t left_ = 0;
  int leaves_ = 1;
  std::vector<int> earliest_;  // min-tree over sections of the earliest end of an unplaced item starting there
};

}  // namespace tidepool::packing
