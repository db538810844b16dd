// The holes at one time of an instance with no slack. Where some items end and others start, the
// starting items take exactly the room the ending ones leave, hole by hole (a hole: ending items
// next to each other in address, and the starting items that fill it). Sizes alone say which
// items may share a hole: the smallest groups of ending and starting items whose sizes add up
// alike. When no two such groups overlap, they are taken for the holes. That is a guess: right
// when sizes are large and varied (equal sums by coincidence are then rare), wrong when they are
// small (two holes of 5 bytes refilled by 2 + 3 and by 4 + 1 look like four holes if a 2 + 3 and a
// 4 + 1 end there too). So it only steers attempts (item_merging.h, bands.h), never rules a
// packing out.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// Up to this many items on either side are looked at (2^n subsets each); more, and the holes are
// unknown.
inline constexpr std::size_t kMaxHoleSide = 16;
// A caller that has nothing better for a time with more items may ask for up to this many a side
// (2^20 subsets: 10-20 ms).
inline constexpr std::size_t kMaxGuessSide = 20;
// A hole number that stands for "unknown".
inline constexpr std::uint32_t kUnknownHole = std::numeric_limits<std::uint32_t>::max();

struct HoleSplit {
  std::vector<std::uint32_t> ending;    // per ending item: its hole, from 0
  std::vector<std::uint32_t> starting;  // per starting item: its hole
  std::uint32_t holes = 0;
};

// What to do when the smallest groups overlap: give up, or keep the groups found first (smallest,
// then in the order of the items) and put what they leave in one more hole, a guess for callers
// whose results are checked.
enum class Ambiguity { unknown, first_found };

// The holes that the sizes of the items ending and starting at one time imply; none when they are
// unknown: either side empty or larger than `max_side` (at most kMaxGuessSide), the totals
// different, sides of several items totalling 2^43 bytes or more (their sums are not matched), the
// smallest groups overlapping (ambiguous), or too many groups of equal sums to compare (with
// Ambiguity::first_found, these last two give a guess instead).
std::optional<HoleSplit> split_into_holes(std::span<const Bytes> ending,
                                          std::span<const Bytes> starting,
                                          Ambiguity ambiguity = Ambiguity::unknown,
                                          std::size_t max_side = kMaxHoleSide);

// The sizes of the items ending and starting at one time.
struct TimeSides {
  std::span<const Bytes> ending;
  std::span<const Bytes> starting;
};

// The subsets whose sums split_into_holes looks at for sides of `ending` and `starting` items
// (each at most kMaxHoleSide): what callers budget, and split_into_holes_at's measure of its work.
constexpr std::int64_t hole_subsets(std::size_t ending, std::size_t starting) {
  return (std::int64_t{1} << ending) + (std::int64_t{1} << starting);
}

// split_into_holes at each of `times`, in order (Ambiguity::unknown, kMaxHoleSide). Each time's
// holes are its own, so when their subsets are many (holes_on_two_threads) a second thread, if
// one starts, takes half of the times; the holes are the same either way.
inline constexpr std::int64_t kHoleWorkForTwoThreads = std::int64_t{1} << 21;
std::vector<std::optional<HoleSplit>> split_into_holes_at(std::span<const TimeSides> times);

// Whether split_into_holes_at starts a second thread for times of `subsets` subsets in all: from
// kHoleWorkForTwoThreads, where this thread's share of the cores (cores.h) is two or more.
bool holes_on_two_threads(std::int64_t subsets);

}  // namespace tidepool::packing
