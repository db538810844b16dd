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
  const auto start = [&](std::uint32_t i) { return problem.items[i].live.front().lower; };
  const auto end = [&](std::uint32_t i) { return problem.items[i].live.front().upper; };
  std::vector<std::uint32_t> by_start(n);
  for (std::uint32_t i = 0; i < n; ++i) by_start[i] = i;
  std::vector<std::uint32_t> by_end = by_start;
  std::ranges::sort(by_start, {}, [&](std::uint32_t i) { return std::pair(start(i), i); });
  std::ranges::sort(by_end, {}, [&](std::uint32_t i) { return std::pair(end(i), i); });
  const Time first = start(by_start.front());
  Steps out;
  for (const std::uint32_t i : by_start) {
    if (start(i) != first) break;
    out.live_first.push_back(i);
  }
  for (std::size_t next_start = out.live_first.size(), next_end = 0; next_start < n;) {
    Step step{start(by_start[next_start]), {}, {}};
    for (; next_end < n && end(by_end[next_end]) <= step.time; ++next_end) {
      if (end(by_end[next_end]) < step.time) return std::nullopt;  // a gap: not without slack
      step.ending.push_back(by_end[next_end]);
    }
    for (; next_start < n && start(by_start[next_start]) == step.time; ++next_start) {
      step.starting.push_back(by_start[next_start]);
    }
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
    const auto outlives = [&](std::uint32_t i) {
      return problem.items[i].live.front().upper > r->time;
    };
    bool mirrored = false;
    if (const auto before = std::ranges::find_if(r->run.before, outlives);
        before != r->run.before.end()) {
      mirrored = offsets[*before] > low;
    } else if (const auto after = std::ranges::find_if(r->run.after, outlives);
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
