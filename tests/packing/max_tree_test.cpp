// MaxTree (the floors of lowest-first placement) against a plain array of floors: random raises
// and queries on every tree size up to 70 sections, powers of two and others.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "analyzer/packing/max_tree.h"

namespace tidepool::packing {
namespace {

TEST(MaxTreeTest, AgreesWithAPlainArrayOfFloors) {
  std::mt19937_64 random(7);
  for (int size = 1; size <= 70; ++size) {
    MaxTree tree(size);
    std::vector<Bytes> floors(size, 0);
    const auto random_range = [&] {
      const int a = static_cast<int>(random() % (size + 1));
      const int b = static_cast<int>(random() % (size + 1));
      return SectionRange{std::min(a, b), std::max(a, b)};
    };
    for (int step = 0; step < 400; ++step) {
      const SectionRange range = random_range();
      if (random() % 2 == 0) {
        const Bytes value = static_cast<Bytes>(random() % 1000);
        tree.raise(range, value);
        for (int s = range.begin; s < range.end; ++s) floors[s] = std::max(floors[s], value);
      } else {
        Bytes expected = 0;
        for (int s = range.begin; s < range.end; ++s) expected = std::max(expected, floors[s]);
        ASSERT_EQ(tree.max(range), expected) << "size " << size << " step " << step << " range [" << range.begin
                                             << ", " << range.end << ")";
      }
    }
  }
}

TEST(MaxTreeTest, AnEmptyRangeIsZeroAndRaisesNothing) {
  MaxTree tree(8);
  tree.raise({3, 3}, 50);
  EXPECT_EQ(tree.max({0, 8}), 0);
  tree.raise({2, 5}, 9);
  EXPECT_EQ(tree.max({4, 4}), 0);
  EXPECT_EQ(tree.max({4, 5}), 9);
  EXPECT_EQ(tree.max({5, 8}), 0);
}

}  // namespace
}  // namespace tidepool::packing
