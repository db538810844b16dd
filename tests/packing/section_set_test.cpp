// SectionSet (the skyline's segment starts) against std::set: random inserts, erases and
// queries of the last member at or before a section, on sizes of one to four levels of words.
#include "analyzer/packing/section_set.h"

#include <gtest/gtest.h>

#include <iterator>
#include <random>
#include <set>

namespace tidepool::packing {
namespace {

int last_at_or_before(const std::set<int>& members, int section) {
  const auto after = members.upper_bound(section);
  return after == members.begin() ? -1 : *std::prev(after);
}

TEST(PackingSectionSet, AgreesWithAnOrderedSet) {
  std::mt19937_64 random(3);
  for (const int size : {1, 2, 63, 64, 65, 127, 128, 4095, 4096, 4097, 70'000, 262'145}) {
    SectionSet set(size);
    std::set<int> members;
    // Sparse and dense phases: queries then cross words (and levels) with nothing in them.
    for (const int density : {2, 50, 2000}) {
      for (int step = 0; step < 3000; ++step) {
        const int section = static_cast<int>(random() % static_cast<std::uint64_t>(size));
        if (random() % static_cast<std::uint64_t>(density) == 0) {
          set.insert(section);
          members.insert(section);
        } else if (random() % 2 == 0) {
          set.erase(section);
          members.erase(section);
        }
        const int query = static_cast<int>(random() % static_cast<std::uint64_t>(size));
        ASSERT_EQ(set.contains(query), members.contains(query))
            << "size " << size << " section " << query;
        ASSERT_EQ(set.last_at_or_before(query), last_at_or_before(members, query))
            << "size " << size << " section " << query;
      }
    }
  }
}

TEST(PackingSectionSet, InsertingAndErasingTwiceIsHarmless) {
  SectionSet set(5000);
  set.insert(4100);
  set.insert(4100);
  set.insert(7);
  EXPECT_EQ(set.last_at_or_before(4999), 4100);
  set.erase(4100);
  set.erase(4100);
  EXPECT_EQ(set.last_at_or_before(4999), 7);
  EXPECT_EQ(set.last_at_or_before(6), -1);
  set.erase(7);
  EXPECT_EQ(set.last_at_or_before(4999), -1);
}

}  // namespace
}  // namespace tidepool::packing
