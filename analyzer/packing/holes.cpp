// The holes at one time (see holes.h): the subset sums of both sides, matched (or, when one side
// is far smaller, its sums looked for among the other's, meet-in-the-middle); the matches taken
// smallest first, each kept if it contains none kept before. The holes at many times: the same at
// each, on two threads where the subsets are many.
#include "analyzer/packing/holes.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <exception>
#include <numeric>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>

#include "analyzer/packing/cores.h"

namespace tidepool::packing {
namespace {

// Beyond this many pairs of subsets with equal sums, the sizes are too uniform to tell holes apart.
constexpr std::size_t kMaxMatches = 4096;

using Mask = std::uint32_t;

// A subset as one word: its sum above its mask (kMaxGuessSide bits), so that words order as (sum,
// mask) pairs would, and adding an item's word to a subset's without it adds the item.
using Subset = std::uint64_t;
constexpr int kMaskBits = 20;
static_assert(kMaxHoleSide <= kMaxGuessSide && kMaxGuessSide <= kMaskBits);
// Sums of sides at or above this do not fit (over 2^43 bytes: no memory is that large).
constexpr Bytes kMaxSideTotal = Bytes{1} << (63 - kMaskBits);
constexpr Bytes sum_of(Subset subset) { return static_cast<Bytes>(subset >> kMaskBits); }
constexpr Mask mask_of(Subset subset) {
  return static_cast<Mask>(subset & ((Subset{1} << kMaskBits) - 1));
}

// Every subset of `sizes` (the empty one only `with_empty`), by sum (then mask): the subsets of
// the first k items, merged with themselves plus the next item (no sort: 2^(n+1) steps in all),
// between `sums` (the result) and `buffer` (scratch space, kept by the caller across calls, as
// `sums`). Words instead of (sum, mask) pairs and no allocation per call: folding a 951,102-item
// block 3.15 -> 2.80 s. The merge takes the lower word without a branch (no two are equal: masks
// differ) and adds the item as it reads: 1.5-3 times as fast as std::merge of a copy plus the
// item, more on larger sides.
void subset_sums(std::span<const Bytes> sizes, std::vector<Subset>& sums, std::vector<Subset>& buffer,
                 bool with_empty = false) {
  const std::size_t total = std::size_t{1} << sizes.size();
  sums.resize(total);
  buffer.resize(total);
  Subset* from = sums.data();
  Subset* to = buffer.data();
  from[0] = 0;  // the empty subset
  for (std::size_t k = 0, count = 1; k < sizes.size(); ++k, count *= 2) {
    const Subset item = static_cast<Subset>(sizes[k]) << kMaskBits | Subset{1} << k;
    std::size_t without = 0;
    std::size_t with = 0;
    std::size_t out = 0;
    while (without < count && with < count) {
      const Subset a = from[without];
      const Subset b = from[with] + item;
      const bool b_first = b < a;
      to[out++] = b_first ? b : a;
      without += !b_first;
      with += b_first;
    }
    for (; without < count; ++without) to[out++] = from[without];
    for (; with < count; ++with) to[out++] = from[with] + item;
    std::swap(from, to);
  }
  if (from != sums.data()) sums.swap(buffer);
  if (!with_empty) sums.erase(sums.begin());  // word 0, which sorts first
}

// A group of ending and starting items whose sizes add up alike.
struct Group {
  Mask ending;
  Mask starting;
  int items;  // in both masks, counted once: the sort below compares it O(m log m) times
};

void add_match(std::vector<Group>& matches, Mask ending, Mask starting) {
  // One count of both masks: without a popcnt instruction in the target, each is a call to libgcc.
  matches.push_back(
      {ending, starting, std::popcount(std::uint64_t{ending} << kMaskBits | starting)});
}

// The first words from `a` and `b` on, in two runs sorted by sum, whose sums are equal (or an end).
// Not inlined: inside its caller the loop kept its pointers on the stack; here both step without a
// branch, in registers (folding the 995,764-item block of perfect:1000000:1:300000: 3.17 ->
// 3.0 s, the walk 9% -> 6.5% of the samples).
[[gnu::noinline]] std::pair<const Subset*, const Subset*> next_equal_sums(const Subset* a, const Subset* a_end,
                                                                          const Subset* b, const Subset* b_end) {
  while (a != a_end && b != b_end) {
    const Bytes end_sum = sum_of(*a);
    const Bytes start_sum = sum_of(*b);
    if (end_sum == start_sum) break;
    a += end_sum < start_sum;
    b += start_sum < end_sum;
  }
  return {a, b};
}

// Both sides' subset sums, merged: 2^a + 2^b words.
std::vector<Group> equal_sums_merged(std::span<const Bytes> ending,
                                     std::span<const Bytes> starting) {
  thread_local std::vector<Subset> ends;
  thread_local std::vector<Subset> starts;
  thread_local std::vector<Subset> buffer;
  subset_sums(ending, ends, buffer);
  subset_sums(starting, starts, buffer);
  std::vector<Group> matches;
  // Sums come in ascending order; a guess keeps the matches of the smallest ones.
  const Subset* a = ends.data();
  const Subset* const a_end = a + ends.size();
  const Subset* b = starts.data();
  const Subset* const b_end = b + starts.size();
  while (true) {
    std::tie(a, b) = next_equal_sums(a, a_end, b, b_end);
    if (a == a_end || b == b_end) break;
    const Bytes end_sum = sum_of(*a);
    const Subset* const b_first = b;
    for (; a != a_end && sum_of(*a) == end_sum; ++a) {
      for (b = b_first; b != b_end && sum_of(*b) == end_sum; ++b) {
        add_match(matches, mask_of(*a), mask_of(*b));
      }
    }
    if (matches.size() > kMaxMatches) break;
  }
  return matches;
}

// When one side is far smaller: its subset sums are the targets, and the subsets of the larger side
// that add up to each are found meet-in-the-middle, from the sums of its two halves (2^a targets
// times 2^(b/2+1) words, against 2^b: a side of 2 against one of 16, 64 times fewer steps).
// Matches come in the same order as equal_sums_merged's.
std::vector<Group> equal_sums_by_targets(std::span<const Bytes> ending,
                                         std::span<const Bytes> starting) {
  const bool small_ending = ending.size() <= starting.size();
  const std::span<const Bytes> small = small_ending ? ending : starting;
  const std::span<const Bytes> large = small_ending ? starting : ending;
  const std::size_t half = large.size() / 2;
  thread_local std::vector<Subset> targets;
  thread_local std::vector<Subset> low;
  thread_local std::vector<Subset> high;
  thread_local std::vector<Subset> buffer;
  thread_local std::vector<Mask> found;
  subset_sums(small, targets, buffer);
  // Each half with its empty subset; the high half's masks moved onto its own bits.
  subset_sums(large.first(half), low, buffer, true);
  subset_sums(large.subspan(half), high, buffer, true);
  for (Subset& word : high)
    word = (word & ~Subset{(Subset{1} << kMaskBits) - 1}) | Subset{mask_of(word)} << half;
  std::vector<Group> matches;
  for (std::size_t t = 0; t < targets.size() && matches.size() <= kMaxMatches;) {
    const Bytes sum = sum_of(targets[t]);
    std::size_t t_end = t;
    while (t_end < targets.size() && sum_of(targets[t_end]) == sum) ++t_end;
    // Every pair of a low and a high subset that adds up to the target: low ascending, high
    // descending, each run of equal sums paired with the other's.
    found.clear();
    std::size_t l = 0;
    std::size_t h = high.size();
    while (l < low.size() && h > 0) {
      const Bytes pair_sum = sum_of(low[l]) + sum_of(high[h - 1]);
      if (pair_sum < sum) {
        ++l;
      } else if (pair_sum > sum) {
        --h;
      } else {
        std::size_t l_end = l;
        while (l_end < low.size() && sum_of(low[l_end]) == sum_of(low[l])) ++l_end;
        std::size_t h_begin = h - 1;
        while (h_begin > 0 && sum_of(high[h_begin - 1]) == sum_of(high[h - 1])) --h_begin;
        for (std::size_t i = l; i < l_end; ++i) {
          for (std::size_t j = h_begin; j < h; ++j) {
            const Mask mask = mask_of(low[i]) | mask_of(high[j]);
            if (mask != 0) found.push_back(mask);
          }
        }
        l = l_end;
        h = h_begin;
      }
    }
    std::ranges::sort(found);
    if (small_ending) {
      for (std::size_t k = t; k < t_end; ++k) {
        for (const Mask mask : found) add_match(matches, mask_of(targets[k]), mask);
      }
    } else {
      for (const Mask mask : found) {
        for (std::size_t k = t; k < t_end; ++k) add_match(matches, mask, mask_of(targets[k]));
      }
    }
    t = t_end;
  }
  return matches;
}

// The groups of equal sums, by sum, then ending mask, then starting mask; once over kMaxMatches,
// those of the smallest sums only (each sum's complete). By targets where that takes fewer steps.
std::vector<Group> equal_sums(std::span<const Bytes> ending, std::span<const Bytes> starting) {
  const std::size_t small = std::min(ending.size(), starting.size());
  const std::size_t large = std::max(ending.size(), starting.size());
  const std::size_t by_targets =
      ((std::size_t{1} << small) - 1) *
      ((std::size_t{1} << (large / 2)) + (std::size_t{1} << (large - large / 2)));
  if (by_targets < (std::size_t{1} << large)) return equal_sums_by_targets(ending, starting);
  return equal_sums_merged(ending, starting);
}

}  // namespace

std::optional<HoleSplit> split_into_holes(std::span<const Bytes> ending,
                                          std::span<const Bytes> starting, Ambiguity ambiguity,
                                          std::size_t max_side) {
  const bool guess = ambiguity == Ambiguity::first_found;
  max_side = std::min(max_side, kMaxGuessSide);
  if (ending.empty() || starting.empty() || ending.size() > max_side ||
      starting.size() > max_side) {
    return std::nullopt;
  }
  const auto total = [](std::span<const Bytes> sizes) {
    return std::accumulate(sizes.begin(), sizes.end(), Bytes{0});
  };
  const Bytes side_total = total(ending);
  if (side_total != total(starting)) return std::nullopt;
  // One item on a side: every item of the other side is in its hole.
  if (ending.size() == 1 || starting.size() == 1) {
    return HoleSplit{std::vector<std::uint32_t>(ending.size(), 0),
                     std::vector<std::uint32_t>(starting.size(), 0), 1};
  }
  if (side_total >= kMaxSideTotal) return std::nullopt;
  std::vector<Group> matches = equal_sums(ending, starting);
  if (matches.size() > kMaxMatches && !guess) return std::nullopt;
  std::ranges::stable_sort(matches, {}, &Group::items);
  std::vector<Group> holes;
  for (const Group& match : matches) {
    bool contains_one = false;
    for (const Group& hole : holes) {
      const bool inside = (match.ending & hole.ending) == hole.ending && (match.starting & hole.starting) == hole.starting;
      const bool apart = (match.ending & hole.ending) == 0 && (match.starting & hole.starting) == 0;
      if (!inside && !apart && !guess) return std::nullopt;
      contains_one = contains_one || !apart;
    }
    if (!contains_one) holes.push_back(match);
  }
  HoleSplit split{std::vector<std::uint32_t>(ending.size()), std::vector<std::uint32_t>(starting.size()),
                  static_cast<std::uint32_t>(holes.size())};
  Mask ending_covered = 0;
  Mask starting_covered = 0;
  for (std::uint32_t h = 0; h < holes.size(); ++h) {
    for (std::size_t k = 0; k < ending.size(); ++k) {
      if (holes[h].ending >> k & 1) split.ending[k] = h;
    }
    for (std::size_t k = 0; k < starting.size(); ++k) {
      if (holes[h].starting >> k & 1) split.starting[k] = h;
    }
    ending_covered |= holes[h].ending;
    starting_covered |= holes[h].starting;
  }
  // An item of size 0 can be in no smallest group (a group with it has a smaller one without it).
  // A guess puts the items left over (they add up alike) in one more hole.
  const Mask all_ending = (Mask{1} << ending.size()) - 1;
  const Mask all_starting = (Mask{1} << starting.size()) - 1;
  if (ending_covered == all_ending && starting_covered == all_starting) return split;
  if (!guess) return std::nullopt;
  for (std::size_t k = 0; k < ending.size(); ++k) {
    if (!(ending_covered >> k & 1)) split.ending[k] = split.holes;
  }
  for (std::size_t k = 0; k < starting.size(); ++k) {
    if (!(starting_covered >> k & 1)) split.starting[k] = split.holes;
  }
  ++split.holes;
  return split;
}

bool holes_on_two_threads(std::int64_t subsets) {
  return subsets >= kHoleWorkForTwoThreads && CoreShare::current() >= 2;
}

// From kHoleWorkForTwoThreads subsets (about 7 ns each: some 15 ms), a second thread takes half
// of the times. Folding the 1,000,000 items of perfect:1000000:1:300000 within holes
// (item_merging.h), the first round's 204,723,538 subsets took 1.4-1.5 s on one core and
// 0.67-0.71 s on two; the fold, 3.8-4.5 s and 2.9-3.0 s (session 54). split_into_holes keeps
// nothing between calls but thread-local buffers; each thread takes the next time not yet taken.
std::vector<std::optional<HoleSplit>> split_into_holes_at(std::span<const TimeSides> times) {
  std::int64_t work = 0;
  for (const TimeSides& time : times) {
    if (time.ending.size() <= kMaxHoleSide && time.starting.size() <= kMaxHoleSide)
      work += hole_subsets(time.ending.size(), time.starting.size());
  }
  std::vector<std::optional<HoleSplit>> splits(times.size());
  std::atomic<std::size_t> next{0};
  std::array<std::exception_ptr, 2> errors;  // the caller's thread's, the helper's
  const auto take_times = [&](std::exception_ptr& error) noexcept {
    try {
      for (std::size_t t = next++; t < times.size(); t = next++)
        splits[t] = split_into_holes(times[t].ending, times[t].starting);
    } catch (...) {
      error = std::current_exception();
      next = times.size();  // the other thread stops too
    }
  };
  {
    std::jthread helper;
    if (holes_on_two_threads(work)) {
      try {
        helper = std::jthread([&] { take_times(errors[1]); });
      } catch (const std::system_error&) {
        // no thread: the caller's takes every time
      }
    }
    take_times(errors[0]);
  }  // joined
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return splits;
}

}  // namespace tidepool::packing
