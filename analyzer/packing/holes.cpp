// The holes at one time (see holes.h): the subset sums of both sides, matched; the matches taken
// smallest first, each kept if it contains none kept before.
#include "analyzer/packing/holes.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <utility>

namespace tidepool::packing {
namespace {

// Beyond this many pairs of subsets with equal sums, the sizes are too uniform to tell holes apart.
constexpr std::size_t kMaxMatches = 4096;

using Mask = std::uint32_t;

// Every non-empty subset of `sizes` as (sum, mask), by sum: the sums of the first k items, merged
// with themselves shifted by the next item's size (no sort: 2^(n+1) steps in all).
std::vector<std::pair<Bytes, Mask>> subset_sums(std::span<const Bytes> sizes) {
  std::vector<std::pair<Bytes, Mask>> sums = {{0, 0}};
  std::vector<std::pair<Bytes, Mask>> shifted;
  std::vector<std::pair<Bytes, Mask>> merged;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    shifted.clear();
    for (const auto& [sum, mask] : sums) shifted.emplace_back(sum + sizes[k], mask | Mask{1} << k);
    merged.resize(sums.size() + shifted.size());
    std::ranges::merge(sums, shifted, merged.begin());
    sums.swap(merged);
  }
  sums.erase(sums.begin());  // the empty subset
  return sums;
}

}  // namespace

std::optional<HoleSplit> split_into_holes(std::span<const Bytes> ending, std::span<const Bytes> starting, Ambiguity ambiguity) {
  const bool guess = ambiguity == Ambiguity::first_found;
  if (ending.empty() || starting.empty() || ending.size() > kMaxHoleSide || starting.size() > kMaxHoleSide) {
    return std::nullopt;
  }
  const auto total = [](std::span<const Bytes> sizes) { return std::accumulate(sizes.begin(), sizes.end(), Bytes{0}); };
  if (total(ending) != total(starting)) return std::nullopt;
  // One item on a side: every item of the other side is in its hole.
  if (ending.size() == 1 || starting.size() == 1) {
    return HoleSplit{std::vector<std::uint32_t>(ending.size(), 0), std::vector<std::uint32_t>(starting.size(), 0), 1};
  }
  const auto ends = subset_sums(ending);
  const auto starts = subset_sums(starting);
  struct Group {
    Mask ending;
    Mask starting;
  };
  std::vector<Group> matches;
  // Sums come in ascending order; a guess keeps the matches of the smallest ones.
  for (std::size_t a = 0, b = 0; a < ends.size() && b < starts.size() && matches.size() <= kMaxMatches;) {
    if (ends[a].first != starts[b].first) {
      ends[a].first < starts[b].first ? ++a : ++b;
      continue;
    }
    const Bytes sum = ends[a].first;
    const std::size_t b_first = b;
    for (; a < ends.size() && ends[a].first == sum; ++a) {
      for (b = b_first; b < starts.size() && starts[b].first == sum; ++b) {
        matches.push_back({ends[a].second, starts[b].second});
      }
    }
  }
  if (matches.size() > kMaxMatches && !guess) return std::nullopt;
  const auto items = [](const Group& group) { return std::popcount(group.ending) + std::popcount(group.starting); };
  std::ranges::stable_sort(matches, {}, items);
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

}  // namespace tidepool::packing
