// The interval map of live allocations: base and interior lookups, boundaries, replacement of
// ranges the driver reused, context destruction and VMM unmapping.
#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/live_allocations.h"

namespace tidepool::runtime {
namespace {

LiveRange range(uint64_t base, uint64_t size, uint64_t id, uint64_t context = 1) {
  return {base, size, id, 0, context, 0, trace::AllocKind::device};
}

TEST(LiveAllocations, FindsBaseAndInteriorAddressesAndNothingOutside) {
  LiveAllocations map;
  map.add(range(0x1000, 0x100, 1));
  map.add(range(0x2000, 0x200, 2));
  EXPECT_EQ(map.find(0x1000)->alloc_id, 1u);
  EXPECT_EQ(map.find(0x10ff)->offset, 0xffu);
  EXPECT_FALSE(map.find(0x1100));
  EXPECT_FALSE(map.find(0xfff));
  EXPECT_EQ(map.find(0x2100)->alloc_id, 2u);
  EXPECT_EQ(map.find(0x2100)->offset, 0x100u);
  EXPECT_FALSE(map.find(0x2200));
  EXPECT_TRUE(map.may_contain(0x1000));
  EXPECT_FALSE(map.may_contain(0x2200));
}

TEST(LiveAllocations, RemoveTakesTheRangeStartingThere) {
  LiveAllocations map;
  map.add(range(0x1000, 0x100, 1));
  EXPECT_FALSE(map.remove(0x1010));
  const auto gone = map.remove(0x1000);
  ASSERT_TRUE(gone);
  EXPECT_EQ(gone->alloc_id, 1u);
  EXPECT_FALSE(map.find(0x1000));
  EXPECT_EQ(map.size(), 0u);
  EXPECT_FALSE(map.may_contain(0x1000));
}

TEST(LiveAllocations, AnOverlappingRangeReplacesStaleOnes) {
  LiveAllocations map;
  map.add(range(0x1000, 0x100, 1));
  map.add(range(0x1100, 0x100, 2));
  map.add(range(0x10f0, 0x20, 3));
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.find(0x1100)->alloc_id, 3u);
  EXPECT_FALSE(map.find(0x1000));
}

TEST(LiveAllocations, MappingsCarryTheirOffsetInThePhysicalAllocation) {
  LiveAllocations map;
  map.add({0x40000, 0x1000, 7, 0x2000, 1, 0, trace::AllocKind::vmm_physical});
  EXPECT_EQ(map.find(0x40010)->offset, 0x2010u);
  map.remove_within(0x40000, 0x1000);
  EXPECT_FALSE(map.find(0x40010));
}

TEST(LiveAllocations, DestroyingAContextForgetsItsRanges) {
  LiveAllocations map;
  map.add(range(0x1000, 0x100, 1, 10));
  map.add(range(0x2000, 0x100, 2, 20));
  EXPECT_EQ(map.remove_context(10), 1u);
  EXPECT_FALSE(map.find(0x1000));
  EXPECT_TRUE(map.find(0x2000));
}

TEST(LiveAllocations, ManyLookupsUnderOneReader) {
  LiveAllocations map;
  for (uint64_t i = 0; i < 100; ++i) map.add(range(0x100000 + i * 0x1000, 0x800, i + 1));
  LiveAllocations::Reader reader(map);
  for (uint64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(reader.find(0x100000 + i * 0x1000 + 0x7ff)->alloc_id, i + 1);
    EXPECT_FALSE(reader.find(0x100000 + i * 0x1000 + 0x800));
  }
}

// A reader answers from the thread's cache only what the map still says: after a free, an
// allocation at the same address, or in another map, the lookup is made again.
TEST(LiveAllocations, CachedAnswersFollowTheMap) {
  LiveAllocations map;
  map.add(range(0x1000, 0x100, 1));
  for (int i = 0; i < 2; ++i) EXPECT_EQ(LiveAllocations::Reader(map).find(0x1010)->alloc_id, 1u);
  ASSERT_TRUE(map.remove(0x1000));
  EXPECT_FALSE(LiveAllocations::Reader(map).find(0x1010));
  map.add(range(0x1000, 0x100, 2));
  EXPECT_EQ(LiveAllocations::Reader(map).find(0x1010)->alloc_id, 2u);
  LiveAllocations other;
  other.add(range(0x1000, 0x100, 3));
  EXPECT_EQ(LiveAllocations::Reader(other).find(0x1010)->alloc_id, 3u);
  EXPECT_EQ(LiveAllocations::Reader(map).find(0x1010)->alloc_id, 2u);
}

// A map made where another was (same address) gives none of the other's answers.
TEST(LiveAllocations, MapInPlaceOfAnotherAnswersAfresh) {
  std::optional<LiveAllocations> map;
  map.emplace();
  map->add(range(0x1000, 0x100, 1));
  EXPECT_EQ(LiveAllocations::Reader(*map).find(0x1010)->alloc_id, 1u);
  map.emplace();
  map->add(range(0x1000, 0x100, 2));
  EXPECT_EQ(LiveAllocations::Reader(*map).find(0x1010)->alloc_id, 2u);
}

// Several threads allocating and freeing at once: each one's ranges are all there until it frees
// them, and none is lost or left behind.
TEST(LiveAllocations, WritersInSeveralThreads) {
  LiveAllocations map;
  std::vector<std::thread> threads;
  std::atomic<bool> lost{false};
  for (uint64_t t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      const uint64_t base = 0x10000000 * (t + 1);
      for (uint64_t round = 0; round < 2000; ++round) {
        for (uint64_t i = 0; i < 4; ++i) map.add(range(base + i * 0x1000, 0x1000, t * 10 + i + 1));
        for (uint64_t i = 0; i < 4; ++i) {
          const auto hit = map.find(base + i * 0x1000 + 0x10);
          if (!hit || hit->alloc_id != t * 10 + i + 1) lost = true;
        }
        for (uint64_t i = 0; i < 4; ++i) {
          if (!map.remove(base + i * 0x1000)) lost = true;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(lost);
  EXPECT_EQ(map.size(), 0u);
}

// Lookups in one thread while another allocates and frees: every answer is one the map gave at
// some moment (the buffer at that address, or none), never another's.
TEST(LiveAllocations, ReadersRaceWritersSafely) {
  LiveAllocations map;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (uint64_t i = 0; i < 20000; ++i) {
      map.add(range(0x1000, 0x100, 1));
      map.remove(0x1000);
    }
    stop = true;
  });
  while (!stop) {
    const auto hit = LiveAllocations::Reader(map).find(0x1010);
    if (hit) {
      EXPECT_EQ(hit->alloc_id, 1u);
      EXPECT_EQ(hit->offset, 0x10u);
    }
  }
  writer.join();
  EXPECT_FALSE(LiveAllocations::Reader(map).find(0x1010));
}

}  // namespace
}  // namespace tidepool::runtime
