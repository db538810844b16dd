// Skyline placement by time-gap fitting (see skyline_fit.h). The skyline is a map of segments
// (maximal runs of sections with one floor) with a lazy min-heap of them by (floor, begin); the
// unplaced items are indexed by start section (unplaced_by_start.h). Each raise merges segments
// or is followed by a placement, so there are O(items + sections) steps.
#include "analyzer/packing/skyline_fit.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <queue>
#include <optional>
#include <tuple>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/unplaced_by_start.h"

namespace tidepool::packing {
namespace {

// No unplaced item can ever live in a closed section: it is out of the skyline.
constexpr Bytes kClosed = std::numeric_limits<Bytes>::max();
// A bound on section ends that every item meets.
constexpr int kAnyEnd = std::numeric_limits<int>::max() - 1;

class Skyline {
 public:
  explicit Skyline(int sections) {
    if (sections > 0) segments_[0] = {sections, 0};
    push(0);
  }

  // The lowest open segment, leftmost among equals: {begin, end, floor}.
  std::tuple<int, int, Bytes> lowest() {
    while (true) {
      const auto [floor, begin, end] = heap_.top();
      heap_.pop();
      const auto it = segments_.find(begin);
      if (it != segments_.end() && it->second.end == end && it->second.floor == floor) return {begin, end, floor};
    }
  }

  // The floor of the segment that ends at `begin`, and of the one that starts at `end` (kClosed
  // when there is none).
  Bytes left_of(int begin) const {
    if (begin == 0) return kClosed;
    return std::prev(segments_.upper_bound(begin - 1))->second.floor;
  }
  Bytes right_of(int end) const {
    const auto it = segments_.find(end);
    return it == segments_.end() ? kClosed : it->second.floor;
  }

  // Sets the floor of sections [from, to), which must lie inside one segment.
  void set(int from, int to, Bytes floor) {
    auto it = std::prev(segments_.upper_bound(from));
    const int begin = it->first;
    const Segment old = it->second;
    if (begin < from) {
      it->second.end = from;
      push(begin);
    }
    if (to < old.end) segments_[to] = {old.end, old.floor};
    segments_[from] = {to, floor};
    merge_around(from);
  }

 private:
  struct Segment {
    int end;
    Bytes floor;
  };

  // Merges the segment at `begin` with equal neighbours, and queues the result.
  void merge_around(int begin) {
    auto it = segments_.find(begin);
    const auto next = std::next(it);
    if (next != segments_.end() && next->second.floor == it->second.floor) {
      it->second.end = next->second.end;
      segments_.erase(next);
    }
    if (it != segments_.begin()) {
      const auto previous = std::prev(it);
      if (previous->second.floor == it->second.floor) {
        previous->second.end = it->second.end;
        segments_.erase(it);
        it = previous;
      }
    }
    push(it->first);
    const auto after = std::next(it);
    if (after != segments_.end()) push(after->first);
  }

  void push(int begin) {
    const auto it = segments_.find(begin);
    if (it != segments_.end() && it->second.floor != kClosed) heap_.emplace(it->second.floor, begin, it->second.end);
  }

  std::map<int, Segment> segments_;
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
