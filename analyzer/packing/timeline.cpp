// The sweep that builds the sections of a timeline.
#include "analyzer/packing/timeline.h"

#include <algorithm>
#include <tuple>

namespace tidepool::packing {

Timeline::Timeline(const Problem& problem) {
  const auto& items = problem.items;
  first_range_.resize(items.size() + 1, 0);
  for (std::size_t i = 0; i < items.size(); ++i) first_range_[i + 1] = first_range_[i] + items[i].live.size();
  ranges_.resize(first_range_.back());
  // Events: (time, 0 = end / 1 = start, range index). Ends first: intervals are half-open.
  std::vector<std::tuple<Time, int, std::size_t>> events;
  events.reserve(2 * ranges_.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t k = 0; k < items[i].live.size(); ++k) {
      events.emplace_back(items[i].live[k].lower, 1, first_range_[i] + k);
      events.emplace_back(items[i].live[k].upper, 0, first_range_[i] + k);
    }
  }
  std::ranges::sort(events);
  std::vector<std::size_t> item_of_range(ranges_.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    for (std::size_t r = first_range_[i]; r < first_range_[i + 1]; ++r) item_of_range[r] = i;
  }
  // A new section closes at the first end after any start; it holds everything live then.
  bool started_since_last_section = false;
  Bytes live_bytes = 0;
  for (const auto& [time, is_start, range] : events) {
    const Bytes size = items[item_of_range[range]].size;
    if (is_start) {
      ranges_[range].begin = section_count();
      started_since_last_section = true;
      live_bytes += size;
    } else {
      if (started_since_last_section) {
        section_total_.push_back(live_bytes);
        started_since_last_section = false;
      }
      ranges_[range].end = section_count();
      live_bytes -= size;
    }
  }
}

Bytes Timeline::peak() const {
  return section_total_.empty() ? 0 : *std::ranges::max_element(section_total_);
}

}  // namespace tidepool::packing
