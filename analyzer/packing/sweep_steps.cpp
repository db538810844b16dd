// The steps of an instance with no slack, and the offsets that follow from a sweep's
// replacements (sweep_steps.h).
#include "analyzer/packing/sweep_steps.h"

#include <algorithm>
#include <utility>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"

namespace tidepool::packing {

std::optional<Steps> steps_of(const Problem& problem) {
  const std::size_t n = problem.items.size();
  // (time, item) pairs sorted, rather than items sorted through their intervals: a third of the
  // time at 1,000,000 items.
  std::vector<std::pair<Time, std::uint32_t>> starts(n);
  std::vector<std::pair<Time, std::uint32_t>> ends(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    starts[i] = {problem.items[i].live.front().lower, i};
    ends[i] = {problem.items[i].live.front().upper, i};
  }
  std::ranges::sort(starts);
  std::ranges::sort(ends);
  Steps out;
  std::size_t next_start = 0;
  for (; next_start < n && starts[next_start].first == starts.front().first; ++next_start)
    out.live_first.push_back(starts[next_start].second);
  for (std::size_t next_end = 0; next_start < n;) {
    Step step{starts[next_start].first, {}, {}};
    for (; next_end < n && ends[next_end].first <= step.time; ++next_end) {
      if (ends[next_end].first < step.time) return std::nullopt;  // a gap: not without slack
      step.ending.push_back(ends[next_end].second);
    }
    for (; next_start < n && starts[next_start].first == step.time; ++next_start)
      step.starting.push_back(starts[next_start].second);
    out.steps.push_back(std::move(step));
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
