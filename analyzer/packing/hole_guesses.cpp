// The guesses of hole_guesses.h.
#include "analyzer/packing/hole_guesses.h"

#include <algorithm>
#include <unordered_map>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

// Holes are looked for first among groups of up to three items a side: pairs up to kMaxPairSide
// items a side, triples up to kMaxTripleSide (hole_guesses.h). More than 16 items a side left over,
// up to kMaxQuadSide, are one hole (a hole of many pieces of a cut instance), or on a second guess
// matched again with groups of four too (refill:10000:7: a time whose 20 and 17 items left were not
// one hole).
constexpr std::size_t kMaxPairSide = 280;
constexpr std::size_t kMaxQuadSide = 40;
// Where the holes of a time are contested, this many orders of its items are tried for others.
constexpr int kGuessTries = 8;
// Groups that add up are matched in rounds of as many items, and matching stops at this many
// matches (a time of 63 and 57 items of sizes on 2,048 steps had tens of millions: 20 s for one
// guess; now at most about 0.6 s).
constexpr std::size_t kMaxMatches = 1 << 20;

// The smallest matching groups of up to three items a side (four with `quads`) first, then in the
// order of the items, each kept if none of its items is in one kept before (contested if one as
// small was); the items left over in `rest`.
std::vector<Hole> small_holes(const Problem& problem, const Items& ending, const Items& starting,
                              bool quads, bool& contested, Hole& rest) {
  std::vector<Hole> holes;
  const std::vector<Items> ending_groups = small_groups(ending, quads);
  const std::vector<Items> starting_groups = small_groups(starting, quads);
  // The starting groups by size, then by sum.
  const std::size_t largest = quads ? 4 : 3;
  std::vector<std::unordered_multimap<Bytes, std::size_t>> starting_by_sum(largest + 1);
  for (std::size_t g = 0; g < starting_groups.size(); ++g)
    starting_by_sum[starting_groups[g].size()].emplace(size_of(problem, starting_groups[g]), g);
  std::vector<Bytes> ending_sums;
  for (const Items& group : ending_groups) ending_sums.push_back(size_of(problem, group));
  // (ending group, starting group), fewest items first, in the order of the groups among equals.
  std::vector<std::pair<std::size_t, std::size_t>> matches;
  const auto items = [&](const std::pair<std::size_t, std::size_t>& match) {
    return ending_groups[match.first].size() + starting_groups[match.second].size();
  };
  std::vector<std::size_t> found;
  for (std::size_t count = 2; count <= 2 * largest && matches.size() < kMaxMatches; ++count) {
    for (std::size_t g = 0; g < ending_groups.size() && matches.size() < kMaxMatches; ++g) {
      const std::size_t size = ending_groups[g].size();
      if (size >= count || count - size > largest) continue;
      const auto [from, to] = starting_by_sum[count - size].equal_range(ending_sums[g]);
      found.clear();
      for (auto it = from; it != to; ++it) found.push_back(it->second);
      std::ranges::sort(found);
      for (const std::size_t s : found) matches.emplace_back(g, s);
    }
  }
  // So many groups add up (sizes on a coarse grain, many items a side) that the first kept are
  // chance: a guess, and a bounded one.
  if (matches.size() >= kMaxMatches) contested = true;
  std::unordered_map<std::uint32_t, std::size_t> taken_by;  // item -> the items of its match
  for (const auto& match : matches) {
    const Items& a = ending_groups[match.first];
    const Items& b = starting_groups[match.second];
    bool free = true;
    for (const Items* group : {&a, &b}) {
      for (const std::uint32_t i : *group) {
        const auto taken = taken_by.find(i);
        if (taken == taken_by.end()) continue;
        free = false;
        contested = contested || taken->second == items(match);
      }
    }
    if (!free) continue;
    for (const std::uint32_t i : a) taken_by[i] = items(match);
    for (const std::uint32_t i : b) taken_by[i] = items(match);
    holes.push_back({a, b});
  }
  for (const std::uint32_t i : ending) {
    if (!taken_by.contains(i)) rest.ending.push_back(i);
  }
  for (const std::uint32_t i : starting) {
    if (!taken_by.contains(i)) rest.starting.push_back(i);
  }
  return holes;
}

}  // namespace

Bytes size_of(const Problem& problem, const Items& items) {
  Bytes sum = 0;
  for (const std::uint32_t i : items) sum += problem.items[i].size;
  return sum;
}

std::vector<Items> small_groups(const Items& side, bool quads, std::size_t max_triple_side) {
  std::vector<Items> groups;
  for (const std::uint32_t a : side) groups.push_back({a});
  if (side.size() > kMaxPairSide) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) groups.push_back({side[a], side[b]});
  }
  if (side.size() > max_triple_side) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) {
      for (std::size_t c = b + 1; c < side.size(); ++c)
        groups.push_back({side[a], side[b], side[c]});
    }
  }
  if (!quads) return groups;
  for (std::size_t a = 0; a < side.size(); ++a) {
    for (std::size_t b = a + 1; b < side.size(); ++b) {
      for (std::size_t c = b + 1; c < side.size(); ++c) {
        for (std::size_t d = c + 1; d < side.size(); ++d)
          groups.push_back({side[a], side[b], side[c], side[d]});
      }
    }
  }
  return groups;
}

// The holes of `rest`, appended to `holes`: holes.h's (a guess where it is ambiguous) for up to
// kMaxHoleSide items a side, else one hole.
void split_rest(const Problem& problem, Hole rest, bool& contested, std::vector<Hole>& holes) {
  if (rest.ending.empty() && rest.starting.empty()) return;
  std::optional<HoleSplit> split;
  if (rest.ending.size() <= kMaxHoleSide && rest.starting.size() <= kMaxHoleSide) {
    std::vector<Bytes> ends, starts;
    for (const std::uint32_t i : rest.ending) ends.push_back(problem.items[i].size);
    for (const std::uint32_t i : rest.starting) starts.push_back(problem.items[i].size);
    split = split_into_holes(ends, starts);
    if (!split) {
      split = split_into_holes(ends, starts, Ambiguity::first_found);
      contested = contested || split.has_value();
    }
  }
  if (!split) {
    holes.push_back(std::move(rest));
    return;
  }
  const std::size_t first = holes.size();
  holes.resize(first + split->holes);
  for (std::size_t k = 0; k < rest.ending.size(); ++k)
    holes[first + split->ending[k]].ending.push_back(rest.ending[k]);
  for (std::size_t k = 0; k < rest.starting.size(); ++k)
    holes[first + split->starting[k]].starting.push_back(rest.starting[k]);
}

// The holes at one time: small_holes' groups of up to three items a side, and what they leave
// split by holes.h if few enough (holes.h alone misses large holes of one or two items among
// small sizes: it matches sums in ascending order and stops at 4,096 matches); more items are one
// hole, or with `quads`, up to kMaxQuadSide a side, matched again with groups of four first.
// `contested`: whether other holes would have added up as well (set, never cleared), or a rest
// of that size was left as one hole.
std::vector<Hole> holes_at(const Problem& problem, const Items& ending, const Items& starting,
                           bool& contested, bool quads) {
  Hole rest;
  std::vector<Hole> holes = small_holes(problem, ending, starting, false, contested, rest);
  const auto larger_than = [&](std::size_t most) {
    return rest.ending.size() > most || rest.starting.size() > most;
  };
  if (larger_than(kMaxHoleSide) && !larger_than(kMaxQuadSide)) {
    contested = true;
    if (quads) {
      Hole left;
      for (Hole& hole : small_holes(problem, rest.ending, rest.starting, true, contested, left))
        holes.push_back(std::move(hole));
      rest = std::move(left);
    }
  }
  split_rest(problem, std::move(rest), contested, holes);
  return holes;
}

GuessKey guess_key(const std::vector<Hole>& holes) {
  GuessKey sorted;
  for (const Hole& hole : holes) {
    sorted.emplace_back(hole.ending, hole.starting);
    std::ranges::sort(sorted.back().first);
    std::ranges::sort(sorted.back().second);
  }
  std::ranges::sort(sorted);
  return sorted;
}

bool regrouped(const GuessKey& guess, const GuessKey& before, const Items& items) {
  const auto hole_of = [](const GuessKey& holes,
                          std::uint32_t i) -> const std::pair<Items, Items>* {
    for (const auto& hole : holes) {
      if (std::ranges::binary_search(hole.first, i) || std::ranges::binary_search(hole.second, i))
        return &hole;
    }
    return nullptr;
  };
  for (const std::uint32_t i : items) {
    const auto* now = hole_of(guess, i);
    const auto* then = hole_of(before, i);
    if (!now || !then || *now != *then) return true;
  }
  return false;
}

Guesses::Guesses(const Problem& problem, const Step& step, std::uint64_t seed)
    : problem_(problem), step_(step), random_(seed) {
  bool contested = false;
  first_ = holes_at(problem, step.ending, step.starting, contested);
  if (contested) seen_.push_back(guess_key(first_));
}

std::optional<std::vector<Hole>> Guesses::next() {
  Items ending = step_.ending;
  Items starting = step_.starting;
  while (contested() && tries_ < kGuessTries) {
    const bool quads = tries_ == 1;
    ++tries_;
    if (!quads) {
      std::ranges::shuffle(ending, random_);
      std::ranges::shuffle(starting, random_);
    }
    bool contested_again = false;
    std::vector<Hole> holes = holes_at(problem_, ending, starting, contested_again, quads);
    GuessKey guess = guess_key(holes);
    if (std::ranges::find(seen_, guess) != seen_.end()) continue;
    seen_.push_back(std::move(guess));
    return holes;
  }
  return std::nullopt;
}

}  // namespace tidepool::packing
