// A thread's share of the cores (cores.h): the machine's where none is given, a share in force on
// its own thread only and until it ends (nested ones too), and the holes' second thread started
// only where the share is two cores or more.
#include "analyzer/packing/cores.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "analyzer/packing/holes.h"

namespace tidepool::packing {
namespace {

unsigned machines_cores() {
  return std::max(std::thread::hardware_concurrency(), 1U);
}

TEST(PackingCores, TheMachinesCoresWhereNoShareIsGiven) {
  EXPECT_EQ(CoreShare::current(), machines_cores());
}

TEST(PackingCores, AShareHoldsOnItsThreadUntilItEnds) {
  {
    const CoreShare half(3);
    EXPECT_EQ(CoreShare::current(), 3U);
    {
      const CoreShare one(1);
      EXPECT_EQ(CoreShare::current(), 1U);
    }
    EXPECT_EQ(CoreShare::current(), 3U);
    unsigned on_another_thread = 0;
    std::jthread([&] { on_another_thread = CoreShare::current(); }).join();
    EXPECT_EQ(on_another_thread, machines_cores());
  }
  EXPECT_EQ(CoreShare::current(), machines_cores());
}

// A share of no cores is one.
TEST(PackingCores, AShareIsAtLeastOneCore) {
  const CoreShare none(0);
  EXPECT_EQ(CoreShare::current(), 1U);
}

TEST(PackingCores, HolesTakeASecondThreadOnlyWithinTheirShare) {
  const std::int64_t many = kHoleWorkForTwoThreads * 1000;
  {
    const CoreShare one(1);
    EXPECT_FALSE(holes_on_two_threads(many));
  }
  const CoreShare two(2);
  EXPECT_TRUE(holes_on_two_threads(many));
  EXPECT_TRUE(holes_on_two_threads(kHoleWorkForTwoThreads));
  EXPECT_FALSE(holes_on_two_threads(kHoleWorkForTwoThreads - 1));
}

}  // namespace
}  // namespace tidepool::packing
