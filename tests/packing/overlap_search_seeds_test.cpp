// The search over overlaps with several seeds at once (overlap_search.h): as low as the lowest
// that any seed finds alone. Labelled slow: each search runs until it gives up, about a second
// each in a release build and minutes under the sanitizers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/overlap_search.h"
#include "analyzer/packing/problem.h"
#include "tests/packing/stacked.h"

namespace tidepool::packing {
namespace {

// Without a deadline, each search runs until it gives up or packs the optimum (where the others
// stop too), so the lowest is the same as alone. On this instance (30 items cut on a grain of one
// byte from 2^32, all stacked at first), the search of seed 2 alone gives up at 1.060 times the
// optimum and that of seed 1 at 1.028: the lowest comes from the second search, on the caller's
// thread.
TEST(PackingOverlapSearchSeeds, SeveralSeedsAtOnceGiveTheLowestOfThem) {
  const PerfectInstance instance = generate_perfect(30, 2, Bytes{1} << 32, 15);
  const Problem& problem = instance.problem;
  const std::vector<Bytes> stacked = stacked_offsets(problem);
  const std::vector<std::uint64_t> seeds = {2, 1};
  Bytes lowest_alone = height_of(problem, stacked);
  for (const std::uint64_t seed : seeds) {
    if (const auto alone =
            lower_by_overlaps(problem, stacked, instance.optimum, Deadline::never(), seed)) {
      lowest_alone = std::min(lowest_alone, height_of(problem, *alone));
    }
  }
  EXPECT_LT(lowest_alone, height_of(problem, stacked));
  const auto together =
      lower_by_overlaps_concurrently(problem, stacked, instance.optimum, Deadline::never(), seeds);
  ASSERT_TRUE(together.has_value());
  const Verdict verdict = check(problem, {*together, height_of(problem, *together)});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(height_of(problem, *together), lowest_alone);
}

}  // namespace
}  // namespace tidepool::packing
