// The checker: a sweep over interval starts and ends keeps the live items in an ordered map keyed
// by offset; an item that starts must not overlap its neighbours in that map.
#include "analyzer/packing/checker.h"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

namespace tidepool::packing {
namespace {

// A start or an end of an item's interval, ordered by time, then ends before starts (intervals are
// half-open), then by item. Sixteen bytes, in a vector reserved at once: at 1,000,000 items, as
// tuples of 24 bytes in a vector grown one by one, the events took 0.67 s to build and sort
// against 0.30 s, and the whole check 1.3-1.7 times the timeline's build against 1.1-1.4 (bands
// check their packing within a solve's time).
struct Event {
  static constexpr std::uint64_t kStart = std::uint64_t{1} << 63;
  Time time = 0;
  std::uint64_t order = 0;  // kStart for a start, and the item
  bool is_start() const { return (order & kStart) != 0; }
  std::size_t item() const { return static_cast<std::size_t>(order & ~kStart); }
  friend auto operator<=>(const Event&, const Event&) = default;
};

std::string describe(const Item& item, Bytes offset) {
  return "'" + item.id + "' at [" + std::to_string(offset) + ", " + std::to_string(offset + item.size) + ")";
}

}  // namespace

Verdict check(const Problem& problem, const Solution& solution) {
  const auto& items = problem.items;
  if (solution.offsets.size() != items.size()) {
    return {false, "the solution has " + std::to_string(solution.offsets.size()) + " offsets for " +
                       std::to_string(items.size()) + " items"};
  }
  Bytes height = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Bytes offset = solution.offsets[i];
    if (offset < 0) return {false, "item " + describe(items[i], offset) + " has a negative offset"};
    if (offset % items[i].alignment != 0) {
      return {false, "item " + describe(items[i], offset) + " is not aligned to " +
                         std::to_string(items[i].alignment)};
    }
    height = std::max(height, offset + items[i].size);
  }
  if (height != solution.height) {
    return {false, "the stated height " + std::to_string(solution.height) + " is not the actual height " +
                       std::to_string(height)};
  }
  std::size_t interval_count = 0;
  for (const Item& item : items) interval_count += item.live.size();
  std::vector<Event> events;
  events.reserve(2 * interval_count);
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (const Interval& interval : items[i].live) {
      events.push_back({interval.lower, Event::kStart | i});
      events.push_back({interval.upper, i});
    }
  }
  std::ranges::sort(events);
  std::multimap<Bytes, std::size_t> live;  // offset -> item
  std::vector<std::multimap<Bytes, std::size_t>::iterator> where(items.size(), live.end());
  for (const Event& event : events) {
    const std::size_t i = event.item();
    const Time time = event.time;
    if (!event.is_start()) {
      live.erase(where[i]);
      continue;
    }
    const Bytes offset = solution.offsets[i];
    const auto next = live.lower_bound(offset);
    if (next != live.end() && next->first < offset + items[i].size) {
      return {false, "items " + describe(items[i], offset) + " and " +
                         describe(items[next->second], next->first) + " overlap at time " +
                         std::to_string(time)};
    }
    if (next != live.begin()) {
      const auto below = std::prev(next);
      if (below->first + items[below->second].size > offset) {
        return {false, "items " + describe(items[i], offset) + " and " +
                           describe(items[below->second], below->first) + " overlap at time " +
                           std::to_string(time)};
      }
    }
    where[i] = live.emplace_hint(next, offset, i);
  }
  return {true, {}};
}

}  // namespace tidepool::packing
