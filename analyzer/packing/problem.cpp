// Validation, normalization, the max-live lower bound, the grain and the height of a placement.
#include "analyzer/packing/problem.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace tidepool::packing {
namespace {

[[noreturn]] void reject(const Item& item, const std::string& what) {
  throw std::invalid_argument("item '" + item.id + "': " + what);
}

}  // namespace

void validate(const Problem& problem) {
  Bytes total = 0;  // of sizes and alignments, up to kMaxTotalBytes
  for (const Item& item : problem.items) {
    if (item.size < 1) reject(item, "size must be at least 1, got " + std::to_string(item.size));
    if (item.alignment < 1) {
      reject(item, "alignment must be at least 1, got " + std::to_string(item.alignment));
    }
    if (item.size > kMaxTotalBytes - total || item.alignment > kMaxTotalBytes - total - item.size) {
      reject(item, "the sizes and alignments of the items up to this one add up to more than 2^61 bytes");
    }
    total += item.size + item.alignment;
    if (item.live.empty()) reject(item, "has no live interval");
    std::vector<Interval> sorted = item.live;
    std::ranges::sort(sorted, {}, &Interval::lower);
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      for (const Time time : {sorted[i].lower, sorted[i].upper}) {
        if (time < -kMaxTime || time > kMaxTime) {
          reject(item, "time " + std::to_string(time) + " lies beyond +-2^61");
        }
      }
      if (sorted[i].upper <= sorted[i].lower) {
        reject(item, "empty interval [" + std::to_string(sorted[i].lower) + ", " +
                         std::to_string(sorted[i].upper) + ")");
      }
      if (i > 0 && sorted[i].lower < sorted[i - 1].upper) reject(item, "intervals overlap");
    }
  }
}

void normalize(Problem& problem) {
  for (Item& item : problem.items) {
    std::ranges::sort(item.live, {}, &Interval::lower);
    std::vector<Interval> merged;
    for (const Interval& interval : item.live) {
      if (!merged.empty() && interval.lower <= merged.back().upper) {
        merged.back().upper = std::max(merged.back().upper, interval.upper);
      } else {
        merged.push_back(interval);
      }
    }
    item.live = std::move(merged);
  }
}

Bytes lower_bound(const Problem& problem) {
  // Sweep the interval ends: at equal times, ends come before starts (half-open intervals).
  std::vector<std::pair<Time, Bytes>> events;
  for (const Item& item : problem.items) {
    for (const Interval& interval : item.live) {
      events.emplace_back(interval.lower, item.size);
      events.emplace_back(interval.upper, -item.size);
    }
  }
  std::ranges::sort(events);
  Bytes live = 0;
  Bytes most = 0;
  for (const auto& [time, delta] : events) {
    live += delta;
    most = std::max(most, live);
  }
  return most;
}

Bytes granularity(const Problem& problem) {
  Bytes grain = 0;
  for (const Item& item : problem.items) {
    grain = std::gcd(grain, item.size);
    if (item.alignment > 1) grain = std::gcd(grain, item.alignment);
  }
  return std::max<Bytes>(grain, 1);
}

Time first_start(const Item& item) {
  return std::ranges::min(item.live, {}, &Interval::lower).lower;
}

Time last_end(const Item& item) {
  return std::ranges::max(item.live, {}, &Interval::upper).upper;
}

Bytes height_of(const Problem& problem, std::span<const Bytes> offsets) {
  Bytes height = 0;
  for (std::size_t i = 0; i < problem.items.size(); ++i) {
    height = std::max(height, offsets[i] + problem.items[i].size);
  }
  return height;
}

}  // namespace tidepool::packing
