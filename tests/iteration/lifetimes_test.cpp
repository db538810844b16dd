// lifetimes() and pool_problem() on small hand-made event sequences.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/iteration/lifetimes.h"
#include "analyzer/iteration/pool_problem.h"
#include "stream_builder.h"

namespace tidepool::iteration {
namespace {

using testing::StreamBuilder;

TEST(Lifetimes, PerIterationAndPersistentAllocations) {
  StreamBuilder b;
  const auto weights = b.alloc(10000);  // 0
  const auto carried = b.alloc(300);    // 1: from the previous iteration, freed in this one
  const std::size_t start = b.size();
  const auto a = b.alloc(100);   // 2 → ordinal 0, position 0
  b.launch("k");                 // 3
  const auto c = b.alloc(200);   // 4 → ordinal 1, position 2
  b.free(a);                     // 5
  b.free(carried);               // 6
  b.alloc(50);                   // 7 → ordinal 2, position 5: escapes the iteration
  b.launch("k");                 // 8
  b.free(c);                     // 9
  const std::size_t end = b.size();
  b.free(weights);

  const auto l = lifetimes(b.stream(), {start, end});
  EXPECT_EQ(l.live_at_start_bytes, 10300u);
  EXPECT_EQ(l.peak_bytes, 10300u + 100 + 200);
  ASSERT_EQ(l.allocations.size(), 3u);
  EXPECT_EQ(l.allocations[0].ordinal, 0u);
  EXPECT_EQ(l.allocations[0].bytes, 100u);
  EXPECT_EQ(l.allocations[0].begin, 0u);
  EXPECT_EQ(l.allocations[0].end, 3u);
  EXPECT_FALSE(l.allocations[0].persistent);
  EXPECT_EQ(l.allocations[1].begin, 2u);
  EXPECT_EQ(l.allocations[1].end, 7u);
  EXPECT_TRUE(l.allocations[2].persistent);
  EXPECT_EQ(l.allocations[2].begin, 5u);
  EXPECT_EQ(l.allocations[2].end, 8u);
  EXPECT_EQ(l.persistent_bytes(), 50u);

  const auto problem = pool_problem(l);
  ASSERT_EQ(problem.items.size(), 2u);
  EXPECT_EQ(problem.items[0].id, "0");
  EXPECT_EQ(problem.items[0].size, 100);
  EXPECT_EQ(problem.items[0].alignment, 256);
  EXPECT_EQ(problem.items[0].live, (std::vector<packing::Interval>{{0, 3}}));
  EXPECT_EQ(problem.items[1].id, "1");
  EXPECT_EQ(problem.items[1].live, (std::vector<packing::Interval>{{2, 7}}));
  EXPECT_EQ(packing::lower_bound(problem), 300);
}

TEST(Lifetimes, InconsistentStreamsAreClearErrors) {
  StreamBuilder b;
  b.alloc(100);
  b.free(1);
  b.free(1);
  EXPECT_THROW(lifetimes(b.stream(), {0, 3}), std::runtime_error);
}

}  // namespace
}  // namespace tidepool::iteration
