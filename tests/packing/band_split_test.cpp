// The split that tiling by bands begins with (band_split.h): how its two ways of guessing holes
// differ where sizes are ambiguous, and that both take apart an instance whose sizes are not.
#include "analyzer/packing/band_split.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "analyzer/packing/generator.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {
namespace {

Item item(Bytes size, Time lower, Time upper) {
  return Item{"x", size, 1, {{lower, upper}}};
}

// Two bands over [0, 4). A, 3 bytes high: w [0, 1) of 3, then z [1, 2) of 1 and u [1, 3) of 2, p
// [2, 3) of 1 where z ends, and v [3, 4) of 3. B, 1 byte high: y [0, 2), then q [2, 4). At time 2,
// z and y (1 byte each) end and p and q (1 byte each) start: sizes cannot tell which refills which.
// Times 1 and 3 can (one item on a side), and once they have joined z's part and p's, z and p
// cancel at time 2 and only y and q are left there. Guessed as found, time 2 (with w's part, which
// holds z, first) pairs z with q, so the bands join into one block.
TEST(PackingBandSplit, SurestFirstWaitsForJoinsThatMakeAGuessCertain) {
  Problem problem;
  problem.items = {item(1, 2, 4) /* q */, item(3, 0, 1) /* w */, item(1, 0, 2) /* y */,
                   item(1, 2, 3) /* p */, item(1, 1, 2) /* z */, item(2, 1, 3) /* u */,
                   item(3, 3, 4) /* v */};
  const Split surest =
      split_top_down(problem, Guessing::surest_first, 0, Deadline::after_seconds(10));
  EXPECT_TRUE(surest.left.empty()) << "every item comes apart";
  EXPECT_EQ(surest.single_items.size(), problem.items.size());
  const Split as_found =
      split_top_down(problem, Guessing::as_found, 0, Deadline::after_seconds(10));
  ASSERT_EQ(as_found.left.size(), 1U);
  EXPECT_EQ(as_found.left.front().items.size(), problem.items.size());
}

// Three bands over [0, 2): C, one item; A, 511 bytes refilled at time 1 by the 9 powers of two
// below 512; B, 261,632 bytes refilled by the 9 from 512 on. At time 1, 2 parts end and 18 start,
// more than holes are guessed at as they come (kMaxHoleSide); at the end they are guessed at with
// more parts looked at (kMaxGuessSide), and A and B are two bands (one hole would join them into
// one).
TEST(PackingBandSplit, TimesWithManyPartsAreGuessedAtWithMoreLookedAt) {
  Problem problem;
  problem.items = {item(7, 0, 2) /* C */, item(511, 0, 1) /* A */, item(261'632, 0, 1) /* B */};
  for (int k = 0; k < 18; ++k) problem.items.push_back(item(Bytes{1} << k, 1, 2));
  for (const Guessing guessing : {Guessing::as_found, Guessing::surest_first}) {
    const Split split = split_top_down(problem, guessing, 0, Deadline::after_seconds(10));
    EXPECT_TRUE(split.left.empty());
    ASSERT_EQ(split.single_items.size(), problem.items.size());
    // Each item's band: the child of the root its leaf is under.
    std::vector<std::uint32_t> band(problem.items.size());
    for (const auto& [i, leaf] : split.single_items) {
      std::uint32_t node = leaf;
      while (split.nodes[node].parent != 0) node = split.nodes[node].parent;
      band[i] = node;
    }
    EXPECT_TRUE(split.nodes[0].stacked);
    EXPECT_NE(band[0], band[1]);
    EXPECT_NE(band[1], band[2]);
    EXPECT_NE(band[0], band[2]);
    for (std::size_t k = 0; k < 18; ++k)
      EXPECT_EQ(band[3 + k], band[k < 9 ? 1 : 2]) << "item " << k;
  }
}

// Sizes drawn from 2^32 bytes on fine times: no hole is ambiguous, and both ways take the whole cut
// tree apart.
TEST(PackingBandSplit, BothWaysTakeApartCutsWhoseSizesAreUnambiguous) {
  const PerfectInstance instance = generate_perfect(2000, 3);
  for (const Guessing guessing : {Guessing::as_found, Guessing::surest_first}) {
    const Split split = split_top_down(instance.problem, guessing, 0, Deadline::after_seconds(30));
    EXPECT_TRUE(split.left.empty());
    EXPECT_EQ(split.single_items.size(), instance.problem.items.size());
  }
}

}  // namespace
}  // namespace tidepool::packing
