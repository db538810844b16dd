// The checker: a sweep over interval starts and ends keeps the live items in an ordered map keyed
// by offset; an item that starts must not overlap its neighbours in that map.
#include "analyzer/packing/checker.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <tuple>
#include <vector>

namespace tidepool::packing {
namespace {

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
  // Events: (time, 0 = end / 1 = start, item). Ends first: intervals are half-open.
  std::vector<std::tuple<Time, int, std::size_t>> events;
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (const Interval& interval : items[i].live) {
      events.emplace_back(interval.lower, 1, i);
      events.emplace_back(interval.upper, 0, i);
    }
  }
  std::ranges::sort(events);
  std::multimap<Bytes, std::size_t> live;  // offset -> item
  std::vector<std::multimap<Bytes, std::size_t>::iterator> where(items.size(), live.end());
  for (const auto& [time, is_start, i] : events) {
    if (!is_start) {
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
