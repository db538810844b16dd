// The packing problem (dynamic storage allocation): items with a size, an alignment and a set of
// live time intervals get address offsets so that no two items live at the same time overlap in
// address; the goal is the smallest height (the end of the highest item). Its lower bound is the
// largest number of bytes live at one time.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tidepool::packing {

using Bytes = std::int64_t;
using Time = std::int64_t;

// A half-open interval of time [lower, upper).
struct Interval {
  Time lower = 0;
  Time upper = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

inline constexpr Bytes kDeviceAlignment = 256;

// One buffer to place. `live` may hold several disjoint intervals (a swapped-out buffer frees its
// space in between, but comes back at the same offset).
struct Item {
  std::string id;
  Bytes size = 0;
  Bytes alignment = kDeviceAlignment;
  std::vector<Interval> live;
  friend bool operator==(const Item&, const Item&) = default;
};

struct Problem {
  std::vector<Item> items;
};

// offsets[i] is the offset of problem.items[i]; height is the highest end of any item.
struct Solution {
  std::vector<Bytes> offsets;
  Bytes height = 0;
};

// What every solver's arithmetic stays far inside of: the sizes and alignments of all items add
// up to at most kMaxTotalBytes (so a height, an offset plus a size, or an offset aligned up never
// overflows Bytes), and every time lies within [-kMaxTime, kMaxTime] (so a live length, or the
// sum of an item's, never overflows Time). 2^61 bytes is 2 EiB.
inline constexpr Bytes kMaxTotalBytes = Bytes{1} << 61;
inline constexpr Time kMaxTime = Time{1} << 61;

// Throws std::invalid_argument naming the first bad item: a size below 1, an alignment below 1,
// no interval, an empty interval, intervals that overlap one another, a time beyond kMaxTime, or
// the item at which sizes and alignments add up past kMaxTotalBytes.
void validate(const Problem& problem);

// Sorts each item's intervals and merges those that touch, so that every item's intervals are
// ascending and strictly apart. Call after validate.
void normalize(Problem& problem);

// The largest total size of items live at one time: no packing can be lower.
Bytes lower_bound(const Problem& problem);

// The highest end (offset + size) over all items; 0 for no items.
Bytes height_of(const Problem& problem, std::span<const Bytes> offsets);

// The greatest common divisor of all sizes and alignments above 1 (1 for no items): every offset and
// height that the placement rules find is a multiple of it, so capacities are tried on that grid.
Bytes granularity(const Problem& problem);

// The earliest start and the latest end of an item's intervals.
Time first_start(const Item& item);
Time last_end(const Item& item);

// The smallest multiple of `alignment` that is >= value (value >= 0).
constexpr Bytes align_up(Bytes value, Bytes alignment) {
  if (alignment == 1) return value;
  const Bytes rest = value % alignment;
  return rest == 0 ? value : value + (alignment - rest);
}

}  // namespace tidepool::packing
