// A stable radix sort of (time, item) pairs by time (see time_sort.h).
#include "analyzer/packing/time_sort.h"

#include <algorithm>
#include <cstddef>

namespace tidepool::packing {

void sort_by_time(std::vector<TimedItem>& items) {
  if (items.empty()) return;
  constexpr int kBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  const auto [earliest, latest] = std::ranges::minmax(items);
  const auto offset = [base = static_cast<std::uint64_t>(earliest.first)](const TimedItem& item) {
    return static_cast<std::uint64_t>(item.first) - base;
  };
  const std::uint64_t span = offset(latest);
  std::vector<TimedItem> sorted(items.size());
  for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += kBits) {
    const auto digit = [&](const TimedItem& item) {
      return (offset(item) >> shift) & (kBuckets - 1);
    };
    std::vector<std::size_t> next(kBuckets + 1, 0);
    for (const TimedItem& item : items) ++next[digit(item) + 1];
    for (std::size_t b = 1; b <= kBuckets; ++b) next[b] += next[b - 1];
    for (const TimedItem& item : items) sorted[next[digit(item)]++] = item;
    items.swap(sorted);
  }
}

}  // namespace tidepool::packing
