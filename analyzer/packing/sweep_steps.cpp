// The steps of an instance with no slack, and the offsets that follow from a sweep's
// replacements (sweep_steps.h).
#include "analyzer/packing/sweep_steps.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/time_sort.h"

namespace tidepool::packing {

namespace {

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
