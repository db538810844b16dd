// The guesses of a time's holes (hole_guesses.h): distinct sizes tell the holes; where very many
// groups add up, the guess is contested and still a cover of the time's items.
#include "analyzer/packing/hole_guesses.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace tidepool::packing {
namespace {

// A problem whose items have these sizes (their intervals do not matter to a guess).
Problem items_of_sizes(const std::vector<Bytes>& sizes) {
  Problem problem;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    problem.items.push_back(Item{std::to_string(i), sizes[i], 1, {Interval{0, 1}}});
  return problem;
}

// Every item of the step in exactly one hole, and every hole's sides of one size.
void expect_cover(const Problem& problem, const Step& step, const std::vector<Hole>& holes) {
  Items ending;
  Items starting;
  for (const Hole& hole : holes) {
    EXPECT_EQ(size_of(problem, hole.ending), size_of(problem, hole.starting));
    ending.insert(ending.end(), hole.ending.begin(), hole.ending.end());
    starting.insert(starting.end(), hole.starting.begin(), hole.starting.end());
  }
  std::ranges::sort(ending);
  std::ranges::sort(starting);
  Items want_ending = step.ending;
  Items want_starting = step.starting;
  std::ranges::sort(want_ending);
  std::ranges::sort(want_starting);
  EXPECT_EQ(ending, want_ending);
  EXPECT_EQ(starting, want_starting);
}

TEST(PackingHoleGuesses, DistinctSizesTellTheHoles) {
  // 1000 is refilled by 600 + 400, 777 by 777, 5000 by 1234 + 3000 + 766.
  const Problem problem = items_of_sizes({1000, 777, 5000, 600, 400, 777, 1234, 3000, 766});
  const Step step{1, {0, 1, 2}, {3, 4, 5, 6, 7, 8}};
  Guesses guesses(problem, step, 1);
  EXPECT_FALSE(guesses.contested());
  ASSERT_EQ(guesses.first().size(), 3u);
  expect_cover(problem, step, guesses.first());
}

TEST(PackingHoleGuesses, ATimeWhereMillionsOfGroupsAddUpIsAContestedCover) {
  // 63 items end and 57 start, sizes on 48 steps: tens of millions of groups of up to three a
  // side add up (a cut instance on a coarse grain); matching them all took 20 s for one guess.
  std::mt19937_64 random(7);
  std::vector<Bytes> sizes;
  Bytes ending_total = 0;
  for (int i = 0; i < 63; ++i) ending_total += sizes.emplace_back(512 * (1 + random() % 48));
  Bytes starting_total = 0;
  for (int i = 0; i < 56; ++i) starting_total += sizes.emplace_back(512 * (1 + random() % 24));
  ASSERT_GT(ending_total, starting_total);
  sizes.push_back(ending_total - starting_total);
  const Problem problem = items_of_sizes(sizes);
  Step step{1, {}, {}};
  for (std::uint32_t i = 0; i < sizes.size(); ++i)
    (i < 63 ? step.ending : step.starting).push_back(i);
  Guesses guesses(problem, step, 1);
  EXPECT_TRUE(guesses.contested());
  expect_cover(problem, step, guesses.first());
  const std::optional<std::vector<Hole>> other = guesses.next();
  ASSERT_TRUE(other.has_value());
  expect_cover(problem, step, *other);
}

}  // namespace
}  // namespace tidepool::packing
