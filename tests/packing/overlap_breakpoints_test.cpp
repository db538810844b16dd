// Breakpoints of the search over overlaps (overlap_breakpoints.h): both sorts give the order by
// offset then neighbour; a kept list patched for moved neighbours is the list a sort from scratch
// gives; lists are kept only while the room allows, and not after too many neighbours moved or the
// height changed.
#include "analyzer/packing/overlap_breakpoints.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace tidepool::packing {
namespace {

constexpr std::uint32_t kFalls[4] = {0, 1, 1, 0};

// The four breakpoints of each neighbour, from its bottom up in steps of `spread` (bottoms that
// repeat put many at one offset), listed by neighbour as the search lists them.
std::vector<Breakpoint> breakpoints_of(const std::vector<std::int64_t>& bottoms,
                                       std::int64_t spread) {
  std::vector<Breakpoint> breakpoints;
  for (std::uint32_t n = 0; n < bottoms.size(); ++n) {
    for (int k = 0; k < 4; ++k) breakpoints.push_back({bottoms[n] + k * spread, n, kFalls[k]});
  }
  return breakpoints;
}

std::vector<Breakpoint> sorted(std::vector<Breakpoint> breakpoints, std::int64_t top) {
  std::vector<Breakpoint> scratch;
  sort_breakpoints(breakpoints, top, scratch);
  return breakpoints;
}

// The sorted breakpoints of `neighbours` neighbours one apart (lists of fewer than 256 are not
// kept: sorted again, they cost about what keeping them does).
std::vector<Breakpoint> list_of(std::size_t neighbours) {
  std::vector<std::int64_t> bottoms(neighbours);
  for (std::size_t n = 0; n < neighbours; ++n) bottoms[n] = static_cast<std::int64_t>(n);
  return sorted(breakpoints_of(bottoms, 1'000), 10'000);
}

TEST(PackingOverlapBreakpoints, BothSortsOrderByOffsetThenNeighbour) {
  std::mt19937_64 rng(1);
  for (const std::size_t neighbours : {10, 100, 1000}) {  // std::sort below 256, radix above
    std::vector<std::int64_t> bottoms(neighbours);
    for (std::int64_t& bottom : bottoms) bottom = static_cast<std::int64_t>(rng() % 50) * 1'000'003;
    const std::vector<Breakpoint> result =
        sorted(breakpoints_of(bottoms, 2'000'006), std::int64_t{1} << 40);
    ASSERT_EQ(result.size(), 4 * neighbours);
    for (std::size_t k = 1; k < result.size(); ++k) {
      const Breakpoint& a = result[k - 1];
      const Breakpoint& b = result[k];
      ASSERT_TRUE(a.at < b.at || (a.at == b.at && a.neighbour <= b.neighbour))
          << neighbours << " at " << k;
    }
  }
}

// Neighbours move at random, a few at a time; after each round the patched list is the one sorted
// from scratch, entry for entry.
TEST(PackingOverlapBreakpoints, APatchedListIsTheListSortedAgain) {
  std::mt19937_64 rng(2);
  for (const std::size_t neighbours : {64, 600}) {
    const std::int64_t top = std::int64_t{1} << 33;
    std::vector<std::int64_t> bottoms(neighbours);
    for (std::int64_t& bottom : bottoms) bottom = static_cast<std::int64_t>(rng() % 40) * 7'919;
    KeptBreakpoints kept(1, 1'000'000);
    EXPECT_FALSE(kept.kept(0));
    const std::vector<Breakpoint> first = sorted(breakpoints_of(bottoms, 15'838), top);
    kept.keep(0, first);
    for (int round = 0; round < 50; ++round) {
      ASSERT_TRUE(kept.kept(0));
      const std::size_t moving = 1 + rng() % KeptBreakpoints::kMaxMovedNeighbours;
      for (std::size_t m = 0; m < moving; ++m) {
        const auto n = static_cast<std::uint32_t>(rng() % neighbours);
        bottoms[n] = static_cast<std::int64_t>(rng() % 40) * 7'919;
        kept.neighbour_moved(0, n);  // a neighbour may move twice
      }
      std::vector<Breakpoint> fresh;
      for (const std::uint32_t n : kept.moved(0)) {
        for (int k = 0; k < 4; ++k) fresh.push_back({bottoms[n] + k * 15'838, n, kFalls[k]});
      }
      std::vector<Breakpoint> scratch;
      sort_breakpoints(fresh, top, scratch);
      const std::span<const Breakpoint> patched = kept.patch(0, fresh);
      const std::vector<Breakpoint> again = sorted(breakpoints_of(bottoms, 15'838), top);
      ASSERT_EQ(std::vector(patched.begin(), patched.end()), again)
          << neighbours << " round " << round;
      EXPECT_TRUE(kept.moved(0).empty());
    }
  }
}

TEST(PackingOverlapBreakpoints, MovedNeighboursAreListedOnceInOrder) {
  KeptBreakpoints kept(1, 1'000);
  kept.keep(0, list_of(64));
  for (const std::uint32_t n : {3, 1, 3, 0}) kept.neighbour_moved(0, n);
  const std::span<const std::uint32_t> moved = kept.moved(0);
  EXPECT_EQ(std::vector(moved.begin(), moved.end()), (std::vector<std::uint32_t>{0, 1, 3}));
}

TEST(PackingOverlapBreakpoints, TooManyMovedNeighboursOrANewHeightDropTheList) {
  const std::vector<Breakpoint> list = list_of(64);
  KeptBreakpoints kept(2, 1'000);
  kept.keep(0, list);
  kept.keep(1, list);
  for (std::size_t m = 0; m < KeptBreakpoints::kMaxMovedNeighbours; ++m) kept.neighbour_moved(0, 0);
  EXPECT_TRUE(kept.kept(0));
  kept.neighbour_moved(0, 1);
  EXPECT_FALSE(kept.kept(0));
  EXPECT_TRUE(kept.kept(1));
  kept.forget_all();
  EXPECT_FALSE(kept.kept(1));
  kept.neighbour_moved(1, 0);  // no list: nothing to patch
  EXPECT_FALSE(kept.kept(1));
}

TEST(PackingOverlapBreakpoints, ListsAreKeptOnlyWhileThereIsRoom) {
  const std::vector<Breakpoint> list = list_of(64);       // 256
  const std::vector<Breakpoint> longer = list_of(80);     // 320
  const std::vector<Breakpoint> short_one = list_of(63);  // 252: never kept
  KeptBreakpoints kept(3, 800);
  EXPECT_EQ(kept.keep(0, list).data(), kept.keep(0, list).data());  // kept again in its place
  kept.keep(1, longer);
  const std::span<const Breakpoint> third = kept.keep(2, list);  // 256 + 320 + 256 > 800
  EXPECT_TRUE(kept.kept(0));
  EXPECT_TRUE(kept.kept(1));
  EXPECT_FALSE(kept.kept(2));
  EXPECT_EQ(third.data(), list.data());  // not kept: the caller's
  kept.keep(1, list);                    // 256 + 256: room for the third again
  kept.keep(2, list);
  EXPECT_TRUE(kept.kept(2));
  EXPECT_EQ(kept.keep(0, short_one).data(), short_one.data());
  EXPECT_FALSE(kept.kept(0));
}

}  // namespace
}  // namespace tidepool::packing
