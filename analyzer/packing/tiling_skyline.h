// The skyline of the tiling search (tiling_search.h): maximal runs of sections with one floor,
// changed only by setting the floor of a prefix of a run (placing an item at the run's floor, or
// raising what nothing can fill), with a lazy min-heap of the runs by (floor, begin). Every change
// goes on a trail, so a depth-first search can undo it; runs a change restores are queued again.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>
#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

class TilingSkyline {
 public:
  // The floor of a run that nothing can use any more (and of the walls at both ends of time).
  static constexpr Bytes kClosed = std::numeric_limits<Bytes>::max();

  struct Run {
    int begin = 0;
    int end = 0;
    Bytes floor = 0;
  };

  explicit TilingSkyline(int sections);

  // Takes the lowest open run (leftmost among equals) off the queue; none when all are closed.
  // Queue it again (requeue) if it is left unchanged.
  std::optional<Run> take_lowest();
  void requeue(int begin);

  int sections() const { return sections_; }
  Run run_at(int begin) const { return {begin, static_cast<int>(end_[begin]), floor_[begin]}; }
  // The floor of the run that ends at `begin` (kClosed at time 0), and of the one that starts
  // at `end` (kClosed at the last section).
  Bytes left_floor(int begin) const { return begin == 0 ? kClosed : floor_[begin_of_run_ending_[begin]]; }
  Bytes right_floor(int end) const { return end == sections_ ? kClosed : floor_[end]; }
  int left_begin(int begin) const { return static_cast<int>(begin_of_run_ending_[begin]); }

  // Sets the floor of [begin, to), a prefix of the run that starts at `begin`, merging it with
  // neighbours of the same floor; returns the begin of the run that now holds it.
  int set_prefix(int begin, int to, Bytes floor);

  std::size_t mark() const { return trail_.size(); }
  void undo(std::size_t mark);

 private:
  void write(std::vector<Bytes>& array, std::size_t index, Bytes value);
  bool is_current(Bytes floor, int begin, int end) const;

  int sections_ = 0;
  // Indexed by section border: whether a run starts there, its end and floor (valid at run
  // starts), and the begin of the run that ends there (valid at run ends).
  std::vector<Bytes> starts_run_;
  std::vector<Bytes> end_;
  std::vector<Bytes> floor_;
  std::vector<Bytes> begin_of_run_ending_;
  struct Change {
    Bytes* where;
    Bytes old;
    int border;  // the section border it is about
  };
  std::vector<Change> trail_;
  std::vector<int> restored_;  // borders an undo touched (scratch)
  using Entry = std::tuple<Bytes, int, int>;      // floor, begin, end
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
};

}  // namespace tidepool::packing
