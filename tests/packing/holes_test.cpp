// The holes at one time (holes.h): split where the sums say so unambiguously, unknown otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

// The holes by their definition, over every pair of subsets: the matches (non-empty subsets of
// both sides with equal sums) that contain no other are the holes, if every match contains each
// or is apart from it, and they cover every item. Per item (ending, then starting), its hole; an
// empty list when the holes are unknown, none when there are too many matches to compare.
constexpr std::size_t kManyMatches = 1000;
std::optional<std::vector<std::uint32_t>> holes_by_definition(const std::vector<Bytes>& ending,
                                                              const std::vector<Bytes>& starting) {
  struct Match {
    std::uint32_t ending;
    std::uint32_t starting;
  };
  const auto sums = [](const std::vector<Bytes>& sizes) {
    std::vector<Bytes> out(std::size_t{1} << sizes.size(), 0);
    for (std::size_t mask = 1; mask < out.size(); ++mask) {
      for (std::size_t k = 0; k < sizes.size(); ++k) {
        if (mask >> k & 1) out[mask] += sizes[k];
      }
    }
    return out;
  };
  const std::vector<Bytes> ending_sums = sums(ending);
  const std::vector<Bytes> starting_sums = sums(starting);
  std::vector<Match> matches;
  for (std::uint32_t e = 1; e < ending_sums.size(); ++e) {
    for (std::uint32_t s = 1; s < starting_sums.size(); ++s) {
      if (ending_sums[e] == starting_sums[s]) matches.push_back({e, s});
    }
  }
  if (matches.size() > kManyMatches) return std::nullopt;
  const auto within = [](const Match& inner, const Match& outer) {
    return (inner.ending & outer.ending) == inner.ending &&
           (inner.starting & outer.starting) == inner.starting;
  };
  std::vector<Match> holes;
  for (const Match& m : matches) {
    bool smallest = true;
    for (const Match& other : matches) {
      if ((other.ending != m.ending || other.starting != m.starting) && within(other, m))
        smallest = false;
    }
    if (smallest) holes.push_back(m);
  }
  std::uint32_t covered_ending = 0;
  std::uint32_t covered_starting = 0;
  for (const Match& hole : holes) {
    for (const Match& m : matches) {
      const bool apart = (m.ending & hole.ending) == 0 && (m.starting & hole.starting) == 0;
      if (!apart && !within(hole, m)) return std::vector<std::uint32_t>{};
    }
    covered_ending |= hole.ending;
    covered_starting |= hole.starting;
  }
  if (covered_ending + 1 != std::uint32_t{1} << ending.size() ||
      covered_starting + 1 != std::uint32_t{1} << starting.size()) {
    return std::vector<std::uint32_t>{};
  }
  std::vector<std::uint32_t> hole_of;
  for (std::size_t k = 0; k < ending.size() + starting.size(); ++k) {
    const bool is_ending = k < ending.size();
    const std::size_t bit = is_ending ? k : k - ending.size();
    for (std::uint32_t h = 0; h < holes.size(); ++h) {
      if ((is_ending ? holes[h].ending : holes[h].starting) >> bit & 1) hole_of.push_back(h);
    }
  }
  return hole_of;
}

// Renumbers holes by first appearance (ending items, then starting).
std::vector<std::uint32_t> by_first_appearance(std::vector<std::uint32_t> holes) {
  std::vector<std::uint32_t> renamed(holes.size() + 1, kUnknownHole);
  std::uint32_t next = 0;
  for (std::uint32_t& hole : holes) {
    if (renamed[hole] == kUnknownHole) renamed[hole] = next++;
    hole = renamed[hole];
  }
  return holes;
}

// The sides of one time with holes planted: each of `ending_count` ending items is a hole,
// refilled by a share of the `starting_count` starting items (at least one each, in random order),
// sizes up to about `range` (small ones make sums coincide).
struct Sides {
  std::vector<Bytes> ending;
  std::vector<Bytes> starting;
};
Sides planted_holes(std::mt19937_64& random, std::size_t ending_count, std::size_t starting_count,
                    Bytes range) {
  Sides sides;
  std::vector<Bytes>& ending = sides.ending;
  std::vector<Bytes>& starting = sides.starting;
  for (std::size_t hole = 0; hole < ending_count; ++hole) {
    const std::size_t holes_after = ending_count - hole - 1;
    const std::size_t room = starting_count - starting.size() - holes_after;
    const std::size_t parts =
        holes_after == 0 ? room : std::min<std::size_t>(1 + random() % 4, room);
    Bytes left = static_cast<Bytes>(parts) +
                 static_cast<Bytes>(random() % static_cast<std::uint64_t>(range));
    ending.push_back(left);
    for (std::size_t k = parts; k > 1; --k) {
      // Positive parts, room left for the k - 1 after this one.
      const Bytes part = 1 + static_cast<Bytes>(random() % static_cast<std::uint64_t>(
                                                               left - static_cast<Bytes>(k) + 1));
      starting.push_back(part);
      left -= part;
    }
    starting.push_back(left);
  }
  std::ranges::shuffle(starting, random);
  return sides;
}

TEST(PackingHoles, AgreesWithTheDefinitionOnSidesOfUnequalAndEqualLength) {
  // A side of 2-3 against one of 9-13 (its subsets found from the small side's sums), and sides
  // of 5-8 each (both sides' sums merged); sizes large or small.
  std::mt19937_64 random(17);
  int split_count = 0;
  for (int round = 0; round < 400; ++round) {
    const bool unequal = round % 2 == 0;
    const Bytes range = round % 4 < 2 ? 1'000'000 : 40;
    const std::size_t ending_count = unequal ? 2 + random() % 2 : 5 + random() % 4;
    const std::size_t starting_count = unequal ? 9 + random() % 5 : ending_count + random() % 3;
    const auto [ending, starting] = planted_holes(random, ending_count, starting_count, range);
    const std::optional<std::vector<std::uint32_t>> expected =
        holes_by_definition(ending, starting);
    if (!expected) continue;
    const std::optional<HoleSplit> split = split_into_holes(ending, starting);
    ASSERT_EQ(split.has_value(), !expected->empty()) << "round " << round;
    if (!split) continue;
    ++split_count;
    std::vector<std::uint32_t> found = split->ending;
    found.insert(found.end(), split->starting.begin(), split->starting.end());
    EXPECT_EQ(by_first_appearance(found), by_first_appearance(*expected)) << "round " << round;
  }
  EXPECT_GT(split_count, 100);  // most rounds have holes to compare, not only unknowns
}

// Many times at once, with subsets enough for a second thread: each time's holes are what
// split_into_holes finds there alone, in order. Some times are unknown: sides too long, totals
// that differ, or small sizes (ambiguous).
TEST(PackingHoles, HolesAtManyTimesAreEachTimesOwn) {
  std::mt19937_64 random(54);
  std::vector<Sides> sides;
  std::int64_t work = 0;
  while (work < 2 * kHoleWorkForTwoThreads) {
    const std::size_t ending_count = 3 + random() % 12;
    const std::size_t starting_count = ending_count + random() % 4;  // up to 17: over kMaxHoleSide
    const Bytes range = random() % 3 == 0 ? 60 : Bytes{1} << 30;
    sides.push_back(planted_holes(random, ending_count, starting_count, range));
    if (random() % 10 == 0) sides.back().starting.back() += 1;  // totals differ
    work += hole_subsets(ending_count, std::min(starting_count, kMaxHoleSide));
  }
  std::vector<TimeSides> times;
  for (const Sides& time : sides) times.push_back({time.ending, time.starting});
  const std::vector<std::optional<HoleSplit>> splits = split_into_holes_at(times);
  ASSERT_EQ(splits.size(), times.size());
  std::size_t known = 0;
  for (std::size_t t = 0; t < times.size(); ++t) {
    const std::optional<HoleSplit> alone = split_into_holes(times[t].ending, times[t].starting);
    ASSERT_EQ(splits[t].has_value(), alone.has_value()) << "time " << t;
    if (!alone) continue;
    ++known;
    EXPECT_EQ(splits[t]->ending, alone->ending) << "time " << t;
    EXPECT_EQ(splits[t]->starting, alone->starting) << "time " << t;
    EXPECT_EQ(splits[t]->holes, alone->holes) << "time " << t;
  }
  EXPECT_GT(known, times.size() / 3);  // holes to compare, not only unknowns
  EXPECT_LT(known, times.size());      // and unknowns in between
}

TEST(PackingHoles, SplitsWhereOnlyOneGroupingAddsUp) {
  // 100 is refilled by 37 + 63 and 200 by 91 + 109; no other subsets add up alike.
  const std::vector<Bytes> ending = {100, 200};
  const std::vector<Bytes> starting = {91, 37, 109, 63};
  const std::optional<HoleSplit> split = split_into_holes(ending, starting);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->holes, 2u);
  EXPECT_EQ(split->starting[1], split->ending[0]);
  EXPECT_EQ(split->starting[3], split->ending[0]);
  EXPECT_EQ(split->starting[0], split->ending[1]);
  EXPECT_EQ(split->starting[2], split->ending[1]);
  EXPECT_NE(split->ending[0], split->ending[1]);
}

TEST(PackingHoles, OneHoleWhenNothingSmallerAddsUp) {
  const std::vector<Bytes> ending = {70, 30};
  const std::vector<Bytes> starting = {45, 55};
  const std::optional<HoleSplit> split = split_into_holes(ending, starting);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->holes, 1u);
  EXPECT_EQ(split->ending, (std::vector<std::uint32_t>{0, 0}));
  EXPECT_EQ(split->starting, (std::vector<std::uint32_t>{0, 0}));
}

TEST(PackingHoles, UnknownWhenGroupingsOverlap) {
  // Two ending items of 5: each could take 2 + 3 or 4 + 1, and {5} = {5} either way round.
  const std::vector<Bytes> ending = {5, 5};
  EXPECT_FALSE(split_into_holes(ending, std::vector<Bytes>{2, 3, 4, 1}).has_value());
  // 3 is refilled by either 3: which one is not known.
  EXPECT_FALSE(split_into_holes(std::vector<Bytes>{7, 3}, std::vector<Bytes>{3, 4, 3}).has_value());
}

// A guess keeps the smallest groups found first and puts what they leave in one more hole.
TEST(PackingHoles, GuessesTheGroupsFoundFirstWhenAmbiguous) {
  const std::vector<Bytes> ending = {5, 5};
  const std::vector<Bytes> starting = {2, 3, 4, 1};
  const std::optional<HoleSplit> split = split_into_holes(ending, starting, Ambiguity::first_found);
  ASSERT_TRUE(split.has_value());
  ASSERT_EQ(split->holes, 2u);
  // Each hole adds up alike on both sides.
  for (std::uint32_t hole = 0; hole < split->holes; ++hole) {
    Bytes ended = 0;
    Bytes started = 0;
    for (std::size_t k = 0; k < ending.size(); ++k) ended += split->ending[k] == hole ? ending[k] : 0;
    for (std::size_t k = 0; k < starting.size(); ++k) started += split->starting[k] == hole ? starting[k] : 0;
    EXPECT_EQ(ended, started) << "hole " << hole;
  }
  // 3 = 3 (the first starting 3) is found first; then 7 = 4 + the other 3.
  const std::optional<HoleSplit> rest = split_into_holes(std::vector<Bytes>{7, 3}, std::vector<Bytes>{3, 4, 3}, Ambiguity::first_found);
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(rest->holes, 2u);
  EXPECT_EQ(rest->ending[0], rest->starting[1]);
  EXPECT_NE(rest->ending[0], rest->ending[1]);
  // Unambiguous splits are the same either way.
  const std::vector<Bytes> clear_ending = {100, 200};
  const std::vector<Bytes> clear_starting = {91, 37, 109, 63};
  EXPECT_EQ(split_into_holes(clear_ending, clear_starting, Ambiguity::first_found)->starting,
            split_into_holes(clear_ending, clear_starting)->starting);
}

TEST(PackingHoles, UnknownWhenTotalsDifferOrASideIsEmptyOrLarge) {
  EXPECT_FALSE(split_into_holes(std::vector<Bytes>{10}, std::vector<Bytes>{4, 5}).has_value());
  EXPECT_FALSE(split_into_holes(std::vector<Bytes>{}, std::vector<Bytes>{4}).has_value());
  EXPECT_FALSE(split_into_holes(std::vector<Bytes>{4}, std::vector<Bytes>{}).has_value());
  std::vector<Bytes> many(kMaxHoleSide + 1);
  for (std::size_t k = 0; k < many.size(); ++k) many[k] = Bytes{1} << k;
  Bytes total = 0;
  for (const Bytes size : many) total += size;
  EXPECT_FALSE(split_into_holes(std::vector<Bytes>{total}, many).has_value());
  many.pop_back();
  total = 0;
  for (const Bytes size : many) total += size;
  EXPECT_TRUE(split_into_holes(std::vector<Bytes>{total}, many).has_value());
}

// A caller may look at more items a side (kMaxGuessSide), at 2^n subsets each.
TEST(PackingHoles, LooksAtMoreItemsASideWhenAsked) {
  // 511 is refilled by the 9 powers of two below 512, 261,632 by the 9 from 512 on: 18 items.
  std::vector<Bytes> starting;
  for (int k = 0; k < 18; ++k) starting.push_back(Bytes{1} << k);
  const std::vector<Bytes> ending = {511, 261'632};
  EXPECT_FALSE(split_into_holes(ending, starting).has_value()) << "18 > kMaxHoleSide";
  const std::optional<HoleSplit> split =
      split_into_holes(ending, starting, Ambiguity::unknown, kMaxGuessSide);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->holes, 2u);
  for (std::size_t k = 0; k < starting.size(); ++k) {
    EXPECT_EQ(split->starting[k], split->ending[k < 9 ? 0 : 1]) << "item " << k;
  }
  // Never more than kMaxGuessSide, whatever is asked.
  std::vector<Bytes> many(kMaxGuessSide + 1);
  for (std::size_t k = 0; k < many.size(); ++k) many[k] = Bytes{1} << k;
  const std::vector<Bytes> halves = {Bytes{1}, (Bytes{1} << many.size()) - 2};
  EXPECT_FALSE(split_into_holes(halves, many, Ambiguity::first_found, 64).has_value());
}

TEST(PackingHoles, UnknownWhenSumsDoNotFitAWordWithTheirSubset) {
  // Sums of 2^43 bytes and more (no memory is that large) are not matched; one item on a side
  // needs no sums.
  const auto sides = [](Bytes unit) {
    return split_into_holes(std::vector<Bytes>{3 * unit, 5 * unit},
                            std::vector<Bytes>{5 * unit, 3 * unit});
  };
  EXPECT_FALSE(sides(Bytes{1} << 40).has_value());  // 2^43 a side
  const std::optional<HoleSplit> split = sides(Bytes{1} << 39);
  ASSERT_TRUE(split.has_value());
  EXPECT_EQ(split->holes, 2u);
  const Bytes huge = Bytes{1} << 50;
  const std::vector<Bytes> halves = {huge, huge};
  EXPECT_TRUE(split_into_holes(std::vector<Bytes>{2 * huge}, halves).has_value());
}

}  // namespace
}  // namespace tidepool::packing
