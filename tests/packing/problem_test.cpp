// The packing problem: validation, normalization, the lower bound and the height.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {
namespace {

TEST(PackingProblem, LowerBoundIsTheLargestLiveTotal) {
  const Problem problem{{
      {"a", 4, 1, {{0, 10}}},
      {"b", 3, 1, {{2, 5}}},
      {"c", 5, 1, {{5, 8}}},  // starts as b ends: half-open, so not with b
  }};
  EXPECT_EQ(lower_bound(problem), 9);
}

TEST(PackingProblem, LowerBoundCountsEachIntervalOfAnItem) {
  const Problem problem{{
      {"gappy", 8, 1, {{0, 2}, {6, 9}}},
      {"middle", 5, 1, {{2, 6}}},
      {"late", 1, 1, {{7, 8}}},
  }};
  EXPECT_EQ(lower_bound(problem), 9);
}

TEST(PackingProblem, EmptyProblemHasZeroBound) { EXPECT_EQ(lower_bound(Problem{}), 0); }

TEST(PackingProblem, ValidateRejectsBadItems) {
  EXPECT_THROW(validate(Problem{{{"zero", 0, 1, {{0, 1}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"align", 1, 0, {{0, 1}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"none", 1, 1, {}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"empty", 1, 1, {{3, 3}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"overlap", 1, 1, {{0, 5}, {4, 6}}}}}), std::invalid_argument);
  EXPECT_NO_THROW(validate(Problem{{{"ok", 1, 1, {{4, 6}, {0, 4}}}}}));
}

// Sums of sizes and alignments, and times, stay where no solver's arithmetic overflows.
TEST(PackingProblem, ValidateKeepsSumsAndTimesWithinTheLimits) {
  const Bytes half = kMaxTotalBytes / 2;
  EXPECT_NO_THROW(validate(Problem{{{"all", kMaxTotalBytes - 1, 1, {{-kMaxTime, kMaxTime}}}}}));
  EXPECT_NO_THROW(validate(Problem{{{"a", half - 1, 1, {{0, 1}}}, {"b", half - 1, 1, {{0, 1}}}}}));
  try {
    validate(Problem{{{"a", half, 1, {{0, 1}}}, {"b", half - 1, 1, {{5, 6}}}, {"c", 1, 1, {{0, 1}}}}});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(validate(Problem{{{"aligned", 1, kMaxTotalBytes, {{0, 1}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"late", 1, 1, {{0, kMaxTime + 1}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"early", 1, 1, {{-kMaxTime - 1, 0}}}}}), std::invalid_argument);
  EXPECT_THROW(validate(Problem{{{"max", 1, 1, {{0, std::numeric_limits<Time>::max()}}}}}), std::invalid_argument);
}

TEST(PackingProblem, ValidateNamesTheItem) {
  try {
    validate(Problem{{{"ok", 1, 1, {{0, 1}}}, {"bad-one", -5, 1, {{0, 1}}}}});
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bad-one"), std::string::npos) << e.what();
  }
}

TEST(PackingProblem, NormalizeSortsAndMergesTouchingIntervals) {
  Problem problem{{{"x", 1, 1, {{8, 9}, {4, 6}, {0, 4}}}}};
  normalize(problem);
  EXPECT_EQ(problem.items[0].live, (std::vector<Interval>{{0, 6}, {8, 9}}));
}

TEST(PackingProblem, HeightAndAlignment) {
  const Problem problem{{{"a", 4, 1, {{0, 1}}}, {"b", 2, 1, {{0, 1}}}}};
  const std::vector<Bytes> offsets = {0, 10};
  EXPECT_EQ(height_of(problem, offsets), 12);
  EXPECT_EQ(align_up(0, 256), 0);
  EXPECT_EQ(align_up(1, 256), 256);
  EXPECT_EQ(align_up(512, 256), 512);
  EXPECT_EQ(align_up(7, 3), 9);
}

}  // namespace
}  // namespace tidepool::packing
