// The sweep of hole_sweep.h: the holes of every time (holes.h where few items end and start;
// else the smallest groups of up to kMaxSmallGroup items a side whose sizes add up alike), each
// hole a replacement in the PQ-tree; then the offsets, from the last time back.
#include "analyzer/packing/hole_sweep.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/completion.h"
#include "analyzer/packing/holes.h"
#include "analyzer/packing/pq_tree.h"

namespace tidepool::packing {
namespace {

// Where more items end or start at one time than holes.h looks at, holes are looked for among
// groups of up to this many items a side (sums of pairs and triples: distinct sizes tell them).
constexpr std::size_t kMaxSmallGroup = 3;
constexpr std::size_t kMaxPairSide = 280;
constexpr std::size_t kMaxTripleSide = 64;

using Items = std::vector<std::uint32_t>;

struct Hole {
  Items ending;
  Items starting;
};

// The groups of up to kMaxSmallGroup items of `side`: singles, then pairs, then triples (pairs
// up to kMaxPairSide items, triples up to kMaxTripleSide: about 40,000 groups at most).
std::vector<Items> small_groups(const Items& side) {
  std::vector<Items> groups;
  for (const std::uint32_t a : side) groups.push_back({a});
  if (side.size() > kMaxPairSide) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) groups.push_back({side[a], side[b]});
  }
  if (side.size() > kMaxTripleSide) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) {
      for (std::size_t c = b + 1; c < side.size(); ++c)
        groups.push_back({side[a], side[b], side[c]});
    }
  }
  return groups;
}

std::vector<Hole> small_holes(const Problem& problem, const Items& ending, const Items& starting);

// The holes at one time: holes.h's (a guess where it is ambiguous), or small_holes' among many.
std::vector<Hole> holes_at(const Problem& problem, const Items& ending, const Items& starting) {
  std::vector<Hole> holes;
  if (ending.size() <= kMaxHoleSide && starting.size() <= kMaxHoleSide) {
    std::vector<Bytes> ends, starts;
    for (const std::uint32_t i : ending) ends.push_back(problem.items[i].size);
    for (const std::uint32_t i : starting) starts.push_back(problem.items[i].size);
    const std::optional<HoleSplit> split = split_into_holes(ends, starts, Ambiguity::first_found);
    if (!split) return {{ending, starting}};
    holes.resize(split->holes);
    for (std::size_t k = 0; k < ending.size(); ++k)
      holes[split->ending[k]].ending.push_back(ending[k]);
    for (std::size_t k = 0; k < starting.size(); ++k)
      holes[split->starting[k]].starting.push_back(starting[k]);
    return holes;
  }
  holes = small_holes(problem, ending, starting);
  // The items left over, when few enough, are split by holes.h.
  if (!holes.empty() && holes.back().ending.size() <= kMaxHoleSide &&
      holes.back().starting.size() <= kMaxHoleSide) {
    Hole rest = std::move(holes.back());
    holes.pop_back();
    for (Hole& hole : holes_at(problem, rest.ending, rest.starting))
      holes.push_back(std::move(hole));
  }
  return holes;
}

// Among many items, the smallest matching groups first (then in the order of the items), each
// kept if none of its items is in one kept before; the items left over last, as one more hole.
std::vector<Hole> small_holes(const Problem& problem, const Items& ending, const Items& starting) {
  std::vector<Hole> holes;
  const auto sum = [&](const Items& group) {
    Bytes total = 0;
    for (const std::uint32_t i : group) total += problem.items[i].size;
    return total;
  };
  const std::vector<Items> ending_groups = small_groups(ending);
  const std::vector<Items> starting_groups = small_groups(starting);
  std::unordered_multimap<Bytes, std::size_t> starting_by_sum;
  for (std::size_t g = 0; g < starting_groups.size(); ++g)
    starting_by_sum.emplace(sum(starting_groups[g]), g);
  std::vector<std::pair<std::size_t, std::size_t>> matches;  // (ending group, starting group)
  for (std::size_t g = 0; g < ending_groups.size(); ++g) {
    const auto [from, to] = starting_by_sum.equal_range(sum(ending_groups[g]));
    std::vector<std::size_t> found;
    for (auto it = from; it != to; ++it) found.push_back(it->second);
    std::ranges::sort(found);
    for (const std::size_t s : found) matches.emplace_back(g, s);
  }
  std::ranges::stable_sort(matches, {}, [&](const auto& match) {
    return ending_groups[match.first].size() + starting_groups[match.second].size();
  });
  std::unordered_map<std::uint32_t, bool> taken;
  const auto free = [&](const Items& group) {
    return std::ranges::none_of(group, [&](std::uint32_t i) { return taken[i]; });
  };
  for (const auto& [e, s] : matches) {
    const Items& a = ending_groups[e];
    const Items& b = starting_groups[s];
    if (!free(a) || !free(b)) continue;
    for (const std::uint32_t i : a) taken[i] = true;
    for (const std::uint32_t i : b) taken[i] = true;
    holes.push_back({a, b});
  }
  Hole rest;
  for (const std::uint32_t i : ending) {
    if (!taken[i]) rest.ending.push_back(i);
  }
  for (const std::uint32_t i : starting) {
    if (!taken[i]) rest.starting.push_back(i);
  }
  if (!rest.ending.empty() || !rest.starting.empty()) holes.push_back(std::move(rest));
  return holes;
}

// A hole's ending items as the tree ordered them, the leaves beside them, and what took their
// place.
struct Replaced {
  Time time = 0;
  PQTree::Run run;
  Items starting;
};

}  // namespace

std::optional<std::vector<Bytes>> sweep_holes(const Problem& problem, const Timeline& timeline,
                                              Deadline deadline) {
  const std::size_t n = problem.items.size();
  if (n == 0) return std::vector<Bytes>{};
  const auto start = [&](std::uint32_t i) { return problem.items[i].live.front().lower; };
  const auto end = [&](std::uint32_t i) { return problem.items[i].live.front().upper; };
  // The items by start and by end; the tree begins with those live first.
  std::vector<std::uint32_t> by_start(n);
  for (std::uint32_t i = 0; i < n; ++i) by_start[i] = i;
  std::vector<std::uint32_t> by_end = by_start;
  std::ranges::sort(by_start, {}, [&](std::uint32_t i) { return std::pair(start(i), i); });
  std::ranges::sort(by_end, {}, [&](std::uint32_t i) { return std::pair(end(i), i); });
  const Time first = start(by_start.front());
  Items live_first;
  for (const std::uint32_t i : by_start) {
    if (start(i) != first) break;
    live_first.push_back(i);
  }

  PQTree tree(n, live_first);
  std::vector<Replaced> replaced;
  std::size_t next_start = live_first.size();
  std::size_t next_end = 0;
  Items ending, starting;
  while (next_start < n) {
    if (deadline.passed()) return std::nullopt;
    const Time time = start(by_start[next_start]);
    ending.clear();
    starting.clear();
    for (; next_end < n && end(by_end[next_end]) <= time; ++next_end) {
      if (end(by_end[next_end]) < time) return std::nullopt;  // a gap: not without slack
      ending.push_back(by_end[next_end]);
    }
    for (; next_start < n && start(by_start[next_start]) == time; ++next_start) {
      starting.push_back(by_start[next_start]);
    }
    for (Hole& hole : holes_at(problem, ending, starting)) {
      if (hole.ending.empty() || hole.starting.empty()) return std::nullopt;
      std::optional<PQTree::Run> run = tree.replace(hole.ending, hole.starting);
      if (!run) return std::nullopt;
      replaced.push_back({time, std::move(*run), std::move(hole.starting)});
    }
  }
  // The items live to the end, in one order from 0; then each replaced run where its starting
  // items lie, the way round that keeps it beside a neighbour that outlived it.
  std::vector<Bytes> offsets(n, kUnplaced);
  Bytes top = 0;
  for (const std::uint32_t i : tree.frontier()) {
    offsets[i] = top;
    top += problem.items[i].size;
  }
  if (top != timeline.peak()) return std::nullopt;
  for (auto r = replaced.rbegin(); r != replaced.rend(); ++r) {
    Bytes low = offsets[r->starting.front()];
    for (const std::uint32_t i : r->starting) low = std::min(low, offsets[i]);
    const auto outlives = [&](std::uint32_t i) { return end(i) > r->time; };
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
