// An exact depth-first search for a packing within a given capacity, in the style of minimalloc
// (Moffitt, ASPLOS 2023). It enumerates canonical solutions only: items are placed in order of
// non-decreasing offset, each at the lowest offset above the placed items it shares time with.
// Pruning: a section's floor plus the sizes still to place in it must fit in the capacity (the
// floor of a section is raised to the lowest offset any of its unplaced items can take); an item
// is not placed at or above the top that another unplaced item could reach below it (dominance).
// Dynamic decomposition: once no unplaced item spans the border between two sections, the
// items on either side are solved as independent subproblems, each in its own preorder (computed
// with the unplaced totals of that moment, as minimalloc does). Hatless pruning: when an item
// that no unplaced item shares time with fails, its later siblings fail too.
// The search stops after a node budget (a node counts 1 plus its placement's steps / kStepsPerNode,
// so that dear nodes count more) or at the deadline, so it is used as an anytime step.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

enum class SearchStatus {
  found,       // a packing within the capacity, in the offsets given to run()
  infeasible,  // proven: no packing fits in the capacity
  gave_up,     // the node budget or the deadline ran out first
};

class ExactSearch {
 public:
  // Builds the overlap graph and the section lists (memory in the number of overlapping pairs).
  ExactSearch(const Problem& problem, const Timeline& timeline);

  // The number of overlapping item pairs: a measure of the cost of building an ExactSearch.
  static std::int64_t overlap_pairs(const Problem& problem);

  // Searches for a packing within `capacity`, trying items that can go equally low in a preorder
  // given as minimalloc's letters, each descending, then by item index: T the largest total of
  // unplaced sizes in the item's sections, A its area, W its live length, Z its size (e.g. "TWA").
  // Throws std::invalid_argument for other letters.
  SearchStatus run(std::string_view preorder, Bytes capacity, std::int64_t node_budget, Deadline deadline,
                   std::vector<Bytes>& offsets);

 private:
  struct Candidate {
    Bytes offset;
    int position;  // in the preorder
  };
  enum class Step { found, not_found, stop };
  // A subproblem: its unplaced items, in preorder, and their sections.
  struct Part {
    std::vector<std::uint32_t> items;
    SectionRange sections;
  };

  // Splits `part` at the given section borders (ascending, inside it) and solves each piece.
  Step solve_pieces(const Part& part, std::span<const int> borders, std::size_t depth);
  Step search(const Part& part, Bytes last_offset, int last_position, std::size_t depth);
  void sort_by_preorder(std::vector<std::uint32_t>& items) const;
  // Returns whether no unplaced item shares time with the item (it is "hatless").
  bool place(std::size_t item, Bytes offset);
  void undo(std::size_t item, Bytes offset, std::size_t min_offset_mark, std::size_t floor_mark);
  bool fits(SectionRange sections, Bytes last_offset) const;

  const Problem& problem_;
  const Timeline& timeline_;
  std::vector<std::size_t> overlap_begin_;
  std::vector<std::uint32_t> overlaps_;
  std::vector<std::size_t> section_begin_;
  std::vector<std::uint32_t> section_items_;
  std::vector<Bytes> area_;    // per item: size x live length
  std::vector<Time> length_;   // per item: live length

  // A node's cost in the node budget: 1, plus the steps of its placement (neighbours raised,
  // sections looked at) / kStepsPerNode. Preorders differ 2-5x in steps per node on the same
  // instance (minimalloc F: TWA 2,000, WAT 10,900), so counting nodes alone gave the costly ones
  // most of the time.
  static constexpr std::int64_t kStepsPerNode = 256;

  // Per run.
  std::string_view preorder_;
  Bytes capacity_ = 0;
  std::int64_t nodes_left_ = 0;
  Deadline deadline_ = Deadline::after_seconds(0);
  std::vector<Bytes>* result_ = nullptr;

  // Search state, undone on backtracking through the two change logs.
  // Per item: the lowest offset it can take, or kPlaced once placed (one load tells both).
  static constexpr Bytes kPlaced = std::numeric_limits<Bytes>::max();
  std::vector<Bytes> min_offset_;
  std::vector<Bytes> floor_;
  std::vector<Bytes> remaining_;  // per section: total size of the unplaced items
  std::vector<std::pair<std::uint32_t, Bytes>> min_offset_log_;
  std::vector<std::pair<std::uint32_t, Bytes>> floor_log_;
  std::vector<int> crossing_;  // per border between sections s and s + 1: unplaced items spanning it
  std::vector<std::uint32_t> section_stamp_;
  std::uint32_t stamp_ = 0;
  std::vector<int> touched_sections_;
  std::vector<std::vector<Candidate>> candidates_;  // per depth
};

}  // namespace tidepool::packing
