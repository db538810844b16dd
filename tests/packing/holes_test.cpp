// The holes at one time (holes.h): split where the sums say so unambiguously, unknown otherwise.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

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
