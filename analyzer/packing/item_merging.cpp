// Merging items in time and in address (see item_merging.h): rounds of both merges, each a sort of
// the items still unmerged, until a round changes nothing.
#include "analyzer/packing/item_merging.h"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>

#include "analyzer/packing/completion.h"
#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

// Subsets that finding holes may enumerate per item, over all rounds (holes.h: 2^n per side of a
// time, about 20 ns each): cut instances of 2,000 and 10,000 items on 1,000 to 3,000 time steps
// used 220-470. Without a limit, grown instances (sizes on 8 steps: many equal sums) of 200,000
// items spent seconds there. Beyond it, holes are unknown.
constexpr std::int64_t kHoleWorkPerItem = 1024;

// Sorts `items` by key(item), each key computed once into an array sorted with its item, instead of
// twice per comparison through the nodes (at 1,000,000 items the sorts were a third of merging).
// The comparisons see the keys only, so ties end in the order a sort of the items by key leaves
// them, and the merges are the same.
template <class KeyOf>
void sort_by_key(std::vector<std::uint32_t>& items, KeyOf key_of) {
  using Key = decltype(key_of(std::uint32_t{}));
  std::vector<std::pair<Key, std::uint32_t>> keyed;
  keyed.reserve(items.size());
  for (const std::uint32_t i : items) keyed.emplace_back(key_of(i), i);
  std::ranges::sort(keyed, {}, &std::pair<Key, std::uint32_t>::first);
  for (std::size_t k = 0; k < items.size(); ++k) items[k] = keyed[k].second;
}

}  // namespace

MergedProblem::MergedProblem(const Problem& problem, Stacking stacking, Deadline deadline)
    : original_count_(problem.items.size()),
      hole_work_left_(kHoleWorkPerItem * static_cast<std::int64_t>(problem.items.size())) {
  nodes_.reserve(2 * original_count_);
  std::vector<std::uint32_t> active;
  std::vector<std::uint32_t> kept;  // items with several intervals: not merged
  for (std::size_t i = 0; i < original_count_; ++i) {
    const Item& item = problem.items[i];
    Node leaf{item.size, item.alignment, item.live.front()};
    nodes_.push_back(leaf);
    (item.live.size() == 1 ? active : kept).push_back(static_cast<std::uint32_t>(i));
  }
  for (bool changed = true; changed && !deadline.passed();) {
    const bool stacked = merge_in_address(active, stacking);
    const bool joined = merge_in_time(active);
    changed = stacked || joined;
  }
  roots_ = std::move(active);
  roots_.insert(roots_.end(), kept.begin(), kept.end());
  merged_.items.reserve(roots_.size());
  for (const std::uint32_t root : roots_) {
    if (root < original_count_) {
      merged_.items.push_back(problem.items[root]);
    } else {
      const Node& node = nodes_[root];
      merged_.items.push_back(Item{"merged" + std::to_string(merged_.items.size()), node.size, node.alignment, {node.live}});
    }
  }
}

std::uint32_t MergedProblem::join(std::uint32_t first, std::uint32_t second, bool in_time) {
  const Node& a = nodes_[first];
  const Node& b = nodes_[second];
  Node node{in_time ? a.size : a.size + b.size, a.alignment, {a.live.lower, in_time ? b.live.upper : a.live.upper},
            first, second, true, in_time};
  if (holes_found_) {
    start_hole_.push_back(start_hole_[first]);
    end_hole_.push_back(end_hole_[in_time ? second : first]);
    for (const Time time : {a.live.lower, a.live.upper, b.live.upper}) changed_times_.push_back(time);
  }
  nodes_.push_back(node);  // after the last use of a and b
  return static_cast<std::uint32_t>(nodes_.size() - 1);
}

// Holes found stay valid as items merge: a stack lies in its parts' holes, and a join in time
// removes a hole of one item on each side from the time where they meet. So a time is looked at
// again only while its holes are unknown, and only after a merge changed its items (fewer, larger
// items may make it small enough, or unambiguous). Holes matter only to items that share their
// interval with another: times where none starts or ends are not looked at.
void MergedProblem::find_holes(const std::vector<std::uint32_t>& active) {
  start_hole_.resize(nodes_.size(), kUnknownHole);
  end_hole_.resize(nodes_.size(), kUnknownHole);
  std::ranges::sort(changed_times_);
  const auto changed = [&](Time time) { return !holes_found_ || std::ranges::binary_search(changed_times_, time); };
  // By start, then end: items of one interval are next to each other.
  std::vector<std::uint32_t> by_start = active;
  std::vector<std::uint32_t> by_end = active;
  sort_by_key(by_start, [&](std::uint32_t i) { return std::pair(nodes_[i].live.lower, nodes_[i].live.upper); });
  sort_by_key(by_end, [&](std::uint32_t i) { return nodes_[i].live.upper; });
  std::vector<char> shares_interval(nodes_.size(), 0);
  for (std::size_t k = 1; k < by_start.size(); ++k) {
    if (nodes_[by_start[k]].live == nodes_[by_start[k - 1]].live) {
      shares_interval[by_start[k]] = 1;
      shares_interval[by_start[k - 1]] = 1;
    }
  }
  // The times where holes are looked for: ending items by_end[e_first, e), starting ones
  // by_start[s_first, s); their sizes one after the other in `sizes`. Their holes are found all at
  // once (split_into_holes_at: on two cores where they are many).
  struct Range {
    std::size_t e_first, e, s_first, s;
  };
  std::vector<Range> ranges;
  std::vector<Bytes> sizes;
  std::vector<Time> deferred;
  for (std::size_t s = 0, e = 0; s < by_start.size() && e < by_end.size();) {
    const Time start = nodes_[by_start[s]].live.lower;
    const Time end = nodes_[by_end[e]].live.upper;
    if (start != end) {
      start < end ? ++s : ++e;
      continue;
    }
    const std::size_t s_first = s;
    const std::size_t e_first = e;
    for (; s < by_start.size() && nodes_[by_start[s]].live.lower == start; ++s) {}
    for (; e < by_end.size() && nodes_[by_end[e]].live.upper == end; ++e) {}
    if (start_hole_[by_start[s_first]] != kUnknownHole || !changed(start)) continue;
    const auto sharing = [&](std::uint32_t i) { return shares_interval[i] != 0; };
    if (std::none_of(by_start.begin() + s_first, by_start.begin() + s, sharing) &&
        std::none_of(by_end.begin() + e_first, by_end.begin() + e, sharing)) {
      deferred.push_back(start);  // looked at again, in case an item there shares its interval then
      continue;
    }
    if (s - s_first > kMaxHoleSide || e - e_first > kMaxHoleSide) continue;
    const std::int64_t work = hole_subsets(e - e_first, s - s_first);
    if (work > hole_work_left_) continue;
    hole_work_left_ -= work;
    ranges.push_back({e_first, e, s_first, s});
    for (std::size_t k = e_first; k < e; ++k) sizes.push_back(nodes_[by_end[k]].size);
    for (std::size_t k = s_first; k < s; ++k) sizes.push_back(nodes_[by_start[k]].size);
  }
  // The sides as spans into `sizes`, now that it is complete.
  std::vector<TimeSides> times;
  times.reserve(ranges.size());
  for (std::size_t at = 0; const Range& range : ranges) {
    const std::span<const Bytes> ending(sizes.data() + at, range.e - range.e_first);
    const std::span<const Bytes> starting(ending.data() + ending.size(), range.s - range.s_first);
    times.push_back({ending, starting});
    at += ending.size() + starting.size();
  }
  const std::vector<std::optional<HoleSplit>> splits = split_into_holes_at(times);
  for (std::size_t t = 0; t < ranges.size(); ++t) {
    if (!splits[t]) continue;
    const Range& range = ranges[t];
    const HoleSplit& split = *splits[t];
    for (std::size_t k = range.e_first; k < range.e; ++k)
      end_hole_[by_end[k]] = next_hole_ + split.ending[k - range.e_first];
    for (std::size_t k = range.s_first; k < range.s; ++k)
      start_hole_[by_start[k]] = next_hole_ + split.starting[k - range.s_first];
    next_hole_ += split.holes;
  }
  holes_found_ = true;
  changed_times_ = std::move(deferred);
}

// Items with the same interval and alignment, each size a multiple of the alignment, stack.
// Within holes, only those in the same hole at both ends (all the items of one interval start
// and end at the same times, so where a hole is unknown it is unknown for all of them), and not an
// item whose holes are unknown at both ends (a stack that no hole vouches for is how coincidences
// of coarse times fold wrongly: with such stacks, a 10,000-item instance on 3,000 time steps
// folded into an instance with no perfect packing); unless holes differ, such items stack too.
bool MergedProblem::merge_in_address(std::vector<std::uint32_t>& active, Stacking stacking) {
  if (stacking != Stacking::all) find_holes(active);
  const auto stacks_with = [&](std::uint32_t i) -> std::pair<std::uint64_t, std::uint64_t> {
    if (stacking == Stacking::all) return {0, 0};
    const bool unknown = start_hole_[i] == kUnknownHole && end_hole_[i] == kUnknownHole;
    if (unknown && stacking == Stacking::within_holes) return {kUnknownHole, std::uint64_t{kUnknownHole} + 1 + i};
    return {start_hole_[i], end_hole_[i]};
  };
  const auto stackable = [&](std::uint32_t i) { return nodes_[i].size % nodes_[i].alignment == 0; };
  const auto key = [&](std::uint32_t i) {
    const Node& node = nodes_[i];
    return std::tuple(node.live.lower, node.live.upper, node.alignment, !stackable(i), stacks_with(i), i);
  };
  const auto same_place = [&](std::uint32_t a, std::uint32_t b) {
    return nodes_[a].live == nodes_[b].live && nodes_[a].alignment == nodes_[b].alignment &&
           stacks_with(a) == stacks_with(b);
  };
  sort_by_key(active, key);
  std::vector<std::uint32_t> next;
  next.reserve(active.size());
  bool changed = false;
  for (std::size_t k = 0; k < active.size();) {
    std::uint32_t stack = active[k];
    std::size_t end = k + 1;
    if (stackable(active[k])) {
      for (; end < active.size() && stackable(active[end]) && same_place(active[k], active[end]); ++end) {
        stack = join(stack, active[end], false);
        changed = true;
      }
    }
    next.push_back(stack);
    k = end;
  }
  active = std::move(next);
  return changed;
}

// Items of one size and alignment, each ending where the next starts, form a row. Within a size,
// items come by start, so a row that ends before the next item's start is complete: rows wait in
// a heap by end (then by when they were made: the earliest of those ending at a start continues),
// and leave it in that order, completed.
bool MergedProblem::merge_in_time(std::vector<std::uint32_t>& active) {
  const auto key = [&](std::uint32_t i) {
    const Node& node = nodes_[i];
    return std::tuple(node.size, node.alignment, node.live.lower, i);
  };
  sort_by_key(active, key);
  std::vector<std::uint32_t> next;
  next.reserve(active.size());
  bool changed = false;
  struct Row {
    Time end;
    std::uint64_t made;
    std::uint32_t node;
  };
  const auto later = [](const Row& a, const Row& b) { return std::tie(a.end, a.made) > std::tie(b.end, b.made); };
  std::vector<Row> rows;  // a min-heap of the current size's rows
  std::uint64_t made = 0;
  // The rows that end before `time` (all of them without one) are complete.
  const auto complete_before = [&](std::optional<Time> time) {
    while (!rows.empty() && (!time || rows.front().end < *time)) {
      next.push_back(rows.front().node);
      std::ranges::pop_heap(rows, later);
      rows.pop_back();
    }
  };
  for (std::size_t k = 0; k < active.size(); ++k) {
    const Node& node = nodes_[active[k]];
    if (k > 0 && (nodes_[active[k - 1]].size != node.size || nodes_[active[k - 1]].alignment != node.alignment)) {
      complete_before(std::nullopt);
    }
    complete_before(node.live.lower);
    std::uint32_t row = active[k];
    if (!rows.empty() && rows.front().end == node.live.lower) {
      row = join(rows.front().node, row, true);
      std::ranges::pop_heap(rows, later);
      rows.pop_back();
      changed = true;
    }
    rows.push_back({nodes_[row].live.upper, made++, row});
    std::ranges::push_heap(rows, later);
  }
  complete_before(std::nullopt);
  active = std::move(next);
  return changed;
}

std::vector<Bytes> MergedProblem::expand(std::span<const Bytes> merged_offsets) const {
  std::vector<Bytes> offsets(original_count_, kUnplaced);
  std::vector<std::pair<std::uint32_t, Bytes>> pending;
  for (std::size_t k = 0; k < roots_.size(); ++k) {
    pending.emplace_back(roots_[k], merged_offsets[k]);
    while (!pending.empty()) {
      const auto [index, offset] = pending.back();
      pending.pop_back();
      const Node& node = nodes_[index];
      if (!node.merged) {
        offsets[index] = offset;
        continue;
      }
      pending.emplace_back(node.first, offset);
      pending.emplace_back(node.second, node.in_time ? offset : offset + nodes_[node.first].size);
    }
  }
  return offsets;
}

}  // namespace tidepool::packing
