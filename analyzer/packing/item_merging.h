// Merging items into larger ones, so that a large instance becomes a small one. Two kinds of merge
// are sound (any packing of the merged instance gives one of the original with the same height):
// - in time: A ends exactly where B starts and both have the same size and alignment: one item
//   live over both intervals, A and B at its offset;
// - in address: items live over the same interval, each a multiple of the alignment they share:
//   one item of their total size, the items stacked in it.
// Merges are repeated until none applies. An instance cut from a rectangle by guillotine cuts
// (generator.h) folds back up its cut tree this way; a real trace folds where a buffer of one size
// is freed exactly when the next of that size is allocated. A merge is not always harmless: it
// fixes two items' relative place, which may rule out the best packing, so callers use the merged
// instance as one attempt among others, never as the only one.
// When times are coarse (many items start and end at the same few times), items of different
// parts of the packing share intervals by coincidence, and stacking them all rules the best
// packing out. Stacking::within_holes then stacks only items that lie in the same hole (holes.h)
// where they start and where they end, as far as the holes are known there (and at one end at
// least); Stacking::unless_holes_differ also stacks items whose holes are known at neither end.
// Neither is better: on instances cut on few time steps, each packs some at the bound that the
// other does not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

class MergedProblem {
 public:
  enum class Stacking {
    all,           // every item of one interval and alignment
    within_holes,         // and in one hole at both ends, known at one end at least
    unless_holes_differ,  // and not in different holes at either end
  };

  // Merges the single-interval items of `problem` (items with several intervals stay as they are).
  // No round of merges begins past `deadline` (each sorts the items left); what was merged by then
  // is as sound.
  explicit MergedProblem(const Problem& problem, Stacking stacking = Stacking::all,
                         Deadline deadline = Deadline::never());

  // The merged instance: fewer items, the same bytes live at every time.
  const Problem& problem() const { return merged_; }
  // The offsets of the original items, given offsets of the merged ones.
  std::vector<Bytes> expand(std::span<const Bytes> merged_offsets) const;

 private:
  struct Node {
    Bytes size = 0;
    Bytes alignment = 1;
    Interval live;
    std::uint32_t first = 0;   // a merged node: the earlier (in time) or lower (in address) part
    std::uint32_t second = 0;  // the later or higher part
    bool merged = false;
    bool in_time = false;
  };

  bool merge_in_address(std::vector<std::uint32_t>& active, Stacking stacking);
  // Per node: its hole where it starts and where it ends (kUnknownHole where unknown).
  void find_holes(const std::vector<std::uint32_t>& active);
  bool merge_in_time(std::vector<std::uint32_t>& active);
  std::uint32_t join(std::uint32_t first, std::uint32_t second, bool in_time);

  std::size_t original_count_ = 0;
  std::vector<Node> nodes_;           // the original items first, then the merged nodes
  std::vector<std::uint32_t> roots_;  // the node of each merged item
  std::int64_t hole_work_left_;  // subsets that find_holes may still enumerate
  bool holes_found_ = false;
  std::uint32_t next_hole_ = 0;
  std::vector<Time> changed_times_;  // since holes were last found: where merges changed the items
  std::vector<std::uint32_t> start_hole_;
  std::vector<std::uint32_t> end_hole_;
  Problem merged_;
};

}  // namespace tidepool::packing
