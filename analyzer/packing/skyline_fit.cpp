// Skyline placement by time-gap fitting (see skyline_fit.h). The skyline is a set of segments
// (maximal runs of sections with one floor), flat arrays indexed by their first section, with a
// lazy min-heap of them by (floor, begin); the unplaced items are indexed by start section
// (unplaced_by_start.h). Each raise merges segments or is followed by a placement, so there are
// O(items + sections) steps.
#include "analyzer/packing/skyline_fit.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <queue>
#include <tuple>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/section_set.h"
#include "analyzer/packing/unplaced_by_start.h"

namespace tidepool::packing {
namespace {

// No unplaced item can ever live in a closed section: it is out of the skyline.
constexpr Bytes kClosed = std::numeric_limits<Bytes>::max();
// A bound on section ends that every item meets.
constexpr int kAnyEnd = std::numeric_limits<int>::max() - 1;

class Skyline {
 public:
  explicit Skyline(int sections)
      : sections_(sections),
        starts_(sections),
        end_(static_cast<std::size_t>(std::max(sections, 1))),
        floor_(end_.size()) {
    if (sections > 0) {
      starts_.insert(0);
      end_[0] = sections;
      floor_[0] = 0;
      push(0);
    }
  }

  // The lowest open segment, leftmost among equals: {begin, end, floor}.
  std::tuple<int, int, Bytes> lowest() {
    while (true) {
      const auto [floor, begin, end] = heap_.top();
      heap_.pop();
      if (starts_.contains(begin) && end_[begin] == end && floor_[begin] == floor)
        return {begin, end, floor};
    }
  }

  // The floor of the segment that ends at `begin`, and of the one that starts at `end` (kClosed
  // when there is none).
  Bytes left_of(int begin) const {
    if (begin == 0) return kClosed;
    return floor_[starts_.last_at_or_before(begin - 1)];
  }
  Bytes right_of(int end) const { return end < sections_ ? floor_[end] : kClosed; }

  // Sets the floor of sections [from, to), which must lie inside one segment.
  void set(int from, int to, Bytes floor) {
    const int begin = starts_.last_at_or_before(from);
    const int old_end = end_[begin];
    const Bytes old_floor = floor_[begin];
    if (begin < from) {
      end_[begin] = from;
      push(begin);
    }
    if (to < old_end) start(to, old_end, old_floor);
    start(from, to, floor);
    merge_around(from);
    // The rest of the old segment, unless it merged.
    if (to < old_end && starts_.contains(to)) push(to);
  }

 private:
  void start(int begin, int end, Bytes floor) {
    starts_.insert(begin);
    end_[begin] = end;
    floor_[begin] = floor;
  }

  // Merges the segment at `begin` with equal neighbours, and queues the result. Every segment has
  // an entry in the heap from when it took its bounds and floor; stale ones are skipped.
  void merge_around(int begin) {
    int at = begin;
    const int next = end_[at];
    if (next < sections_ && floor_[next] == floor_[at]) {
      end_[at] = end_[next];
      starts_.erase(next);
    }
    if (at > 0) {
      const int previous = starts_.last_at_or_before(at - 1);
      if (floor_[previous] == floor_[at]) {
        end_[previous] = end_[at];
        starts_.erase(at);
        at = previous;
      }
    }
    push(at);
  }

  void push(int begin) {
    if (floor_[begin] != kClosed) heap_.emplace(floor_[begin], begin, end_[begin]);
  }

  // The segments partition the sections: each starts where the one before it ends. end_ and
  // floor_ are those of the segment that starts at a section, for the members of starts_.
  int sections_;
  SectionSet starts_;
  std::vector<int> end_;
  std::vector<Bytes> floor_;
  using Entry = std::tuple<Bytes, int, int>;  // floor, begin, end
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
};

}  // namespace

std::vector<Bytes> place_skyline(const Problem& problem, const Timeline& timeline,
                                 std::span<const std::uint32_t> rank, Deadline deadline) {
  const auto& items = problem.items;
  std::vector<Bytes> offsets(items.size(), kUnplaced);
  UnplacedByStart unplaced(timeline, rank);
  Skyline skyline(timeline.section_count());
  for (std::uint64_t step = 1; !unplaced.empty() && !deadline.passed_at(step, unplaced.size()); ++step) {
    const auto [begin, end, floor] = skyline.lowest();
    if (const std::optional<std::uint32_t> fitting = unplaced.take_fitting(begin, end)) {
      const std::uint32_t i = *fitting;
      offsets[i] = align_up(floor, items[i].alignment);
      for (const SectionRange range : timeline.ranges(i)) skyline.set(range.begin, range.end, offsets[i] + items[i].size);
      continue;
    }
    // Nothing fits here. Up to the next section where an item starts that fits in the segment,
    // the items live began further left (they need the left neighbour's floor) or end beyond the
    // segment (they need at least the right neighbour's): those sections rise to the lower.
    const int stop = unplaced.first_start_ending_by(begin + 1, end, end);
    const bool starts_before_stop = unplaced.first_start_ending_by(begin, stop, kAnyEnd) < stop;
    const Bytes left = skyline.left_of(begin);
    skyline.set(begin, stop, starts_before_stop ? std::min(left, skyline.right_of(end)) : left);
  }
  return offsets;
}

}  // namespace tidepool::packing
