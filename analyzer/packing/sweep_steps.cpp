// The steps of an instance with no slack, and the offsets that follow from a sweep's
// replacements (sweep_steps.h).
#include "analyzer/packing/sweep_steps.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"

namespace tidepool::packing {

namespace {

using TimedItem = std::pair<Time, std::uint32_t>;

// Sorts by time, stably (items of one time stay in the order given): a least-significant-digit
// radix sort over the times' offsets from the earliest, 11 bits a pass, as many passes as the
// span of times needs (two for 3,000,000 steps). At 1,000,000 items it took a quarter of the time
// std::sort of the pairs took, which the whole-step pass spends before its first step.
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

// The items of `sorted[from, to)`.
Items items_of(const std::vector<TimedItem>& sorted, std::size_t from, std::size_t to) {
  Items out(to - from);
  for (std::size_t k = from; k < to; ++k) out[k - from] = sorted[k].second;
  return out;
}

}  // namespace

std::optional<Steps> steps_of(const Problem& problem) {
  const std::size_t n = problem.items.size();
  std::vector<TimedItem> starts(n);
  std::vector<TimedItem> ends(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    starts[i] = {problem.items[i].live.front().lower, i};
    ends[i] = {problem.items[i].live.front().upper, i};
  }
  sort_by_time(starts);
  sort_by_time(ends);
  Steps out;
  std::size_t next_start = 0;
  while (next_start < n && starts[next_start].first == starts.front().first) ++next_start;
  out.live_first = items_of(starts, 0, next_start);
  std::size_t step_count = 0;
  for (std::size_t k = next_start; k < n; ++k)
    step_count += k == next_start || starts[k].first != starts[k - 1].first;
  out.steps.reserve(step_count);
  for (std::size_t next_end = 0; next_start < n;) {
    const Time time = starts[next_start].first;
    const std::size_t first_end = next_end;
    for (; next_end < n && ends[next_end].first <= time; ++next_end) {
      if (ends[next_end].first < time) return std::nullopt;  // a gap: not without slack
    }
    const std::size_t first_start = next_start;
    while (next_start < n && starts[next_start].first == time) ++next_start;
    out.steps.push_back(
        {time, items_of(ends, first_end, next_end), items_of(starts, first_start, next_start)});
  }
  return out;
}

std::optional<std::vector<Bytes>> offsets_of(const Problem& problem, const Timeline& timeline,
                                             const PQTree& tree, std::vector<Replaced>& replaced) {
  std::vector<Bytes> offsets(problem.items.size(), kUnplaced);
  Bytes top = 0;
  for (const std::uint32_t i : tree.frontier()) {
    offsets[i] = top;
    top += problem.items[i].size;
  }
  if (top != timeline.peak()) return std::nullopt;
  for (auto r = replaced.rbegin(); r != replaced.rend(); ++r) {
    Bytes low = offsets[r->starting.front()];
    for (const std::uint32_t i : r->starting) low = std::min(low, offsets[i]);
    // A neighbour already placed: one that outlived the run, or one of another hole of the same
    // time placed before it (the holes of one time can be each other's only neighbours).
    const auto placed = [&](std::uint32_t i) { return offsets[i] != kUnplaced; };
    bool mirrored = false;
    if (const auto before = std::ranges::find_if(r->run.before, placed);
        before != r->run.before.end()) {
      mirrored = offsets[*before] > low;
    } else if (const auto after = std::ranges::find_if(r->run.after, placed);
               after != r->run.after.end()) {
      mirrored = offsets[*after] < low;
    }
    if (mirrored) std::ranges::reverse(r->run.order);
    for (const std::uint32_t i : r->run.order) {
      offsets[i] = low;
      low += problem.items[i].size;
    }
  }
  if (!check(problem, {offsets, timeline.peak()}).valid) return std::nullopt;
  return offsets;
}

}  // namespace tidepool::packing
