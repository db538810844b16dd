// The checker accepts valid packings and rejects overlapping, misaligned or misreported ones.
#include <gtest/gtest.h>

#include "analyzer/packing/checker.h"

#include <algorithm>
#include <random>
#include <string>

namespace tidepool::packing {
namespace {

const Problem kProblem{{
    {"a", 4, 1, {{0, 5}}},
    {"b", 4, 2, {{3, 8}}},
    {"c", 4, 1, {{5, 9}}},  // after a (half-open): may share a's addresses
}};

TEST(PackingChecker, AcceptsAValidPacking) {
  const Verdict verdict = check(kProblem, {{0, 4, 0}, 8});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_TRUE(verdict.reason.empty());
}

TEST(PackingChecker, RejectsOverlapInTimeAndAddress) {
  const Verdict verdict = check(kProblem, {{0, 2, 6}, 10});
  EXPECT_FALSE(verdict.valid);
  EXPECT_NE(verdict.reason.find("overlap"), std::string::npos) << verdict.reason;
  EXPECT_FALSE(check(kProblem, {{0, 4, 4}, 8}).valid);  // b and c share [5, 8)
}

TEST(PackingChecker, RejectsMisalignedAndNegativeOffsets) {
  const Verdict misaligned = check(kProblem, {{0, 5, 0}, 9});
  EXPECT_FALSE(misaligned.valid);
  EXPECT_NE(misaligned.reason.find("aligned"), std::string::npos) << misaligned.reason;
  EXPECT_FALSE(check(kProblem, {{-4, 4, 0}, 8}).valid);
}

TEST(PackingChecker, RejectsAWrongHeightOrOffsetCount) {
  EXPECT_FALSE(check(kProblem, {{0, 4, 0}, 7}).valid);
  EXPECT_FALSE(check(kProblem, {{0, 4, 0}, 9}).valid);
  EXPECT_FALSE(check(kProblem, {{0, 4}, 8}).valid);
}

TEST(PackingChecker, HandlesItemsWithSeveralIntervals) {
  const Problem problem{{
      {"gappy", 4, 1, {{0, 2}, {6, 8}}},
      {"inside-gap", 4, 1, {{2, 6}}},
      {"late", 4, 1, {{7, 9}}},
  }};
  EXPECT_TRUE(check(problem, {{0, 0, 4}, 8}).valid);
  EXPECT_FALSE(check(problem, {{0, 0, 0}, 4}).valid);  // late meets gappy's second interval
}

// The sweep against every pair, on small random packings of which some overlap somewhere and some
// do not (many ends and starts fall on one time, as on coarse times).
TEST(PackingChecker, AgreesWithEveryPairOnRandomPackings) {
  std::mt19937_64 random(7);
  const auto draw = [&](int below) { return static_cast<int>(random() % static_cast<std::uint64_t>(below)); };
  int valid = 0;
  for (int trial = 0; trial < 500; ++trial) {
    Problem problem;
    Solution solution;
    for (int i = 0; i < 8; ++i) {
      const Time lower = draw(10);
      const Time upper = lower + 1 + draw(4);
      Item item{"i" + std::to_string(i), 1 + draw(3), 1, {{lower, upper}}};
      if (draw(3) == 0) item.live.push_back({upper + 1 + draw(3), upper + 5 + draw(3)});
      problem.items.push_back(item);
      solution.offsets.push_back(draw(40));
      solution.height = std::max(solution.height, solution.offsets.back() + item.size);
    }
    bool expected = true;
    for (std::size_t a = 0; a < problem.items.size(); ++a) {
      for (std::size_t b = a + 1; b < problem.items.size(); ++b) {
        const Item& x = problem.items[a];
        const Item& y = problem.items[b];
        const bool in_address = solution.offsets[a] < solution.offsets[b] + y.size &&
                                solution.offsets[b] < solution.offsets[a] + x.size;
        for (const Interval& u : x.live) {
          for (const Interval& v : y.live) {
            if (in_address && u.lower < v.upper && v.lower < u.upper) expected = false;
          }
        }
      }
    }
    valid += expected;
    EXPECT_EQ(check(problem, solution).valid, expected) << "trial " << trial;
  }
  EXPECT_GT(valid, 50) << valid;
  EXPECT_LT(valid, 450);
}

}  // namespace
}  // namespace tidepool::packing
