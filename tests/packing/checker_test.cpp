// The checker accepts valid packings and rejects overlapping, misaligned or misreported ones.
#include <gtest/gtest.h>

#include "analyzer/packing/checker.h"

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

}  // namespace
}  // namespace tidepool::packing
