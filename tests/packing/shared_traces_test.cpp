// `best` on a few small public instances from the shared traces, at their known optimum within a
// short time limit. Skipped when the shared data is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/csv.h"
#include "analyzer/packing/solver.h"

namespace tidepool::packing {
namespace {

void expect_best_at_lower_bound(const std::string& relative) {
  const std::filesystem::path path = std::filesystem::path(TIDEPOOL_SHARED_DIR) / "traces" / relative;
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
  const Problem problem = read_csv(path.string());
  const Solution solution = solve("best", problem, Deadline::after_seconds(5));
  const Verdict verdict = check(problem, solution);
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(solution.height, lower_bound(problem)) << relative;
}

TEST(PackingSharedTraces, MinimallocExample) { expect_best_at_lower_bound("minimalloc/examples/input.12.csv"); }
TEST(PackingSharedTraces, MinimallocChallengingC) { expect_best_at_lower_bound("minimalloc/challenging/C.1048576.csv"); }
TEST(PackingSharedTraces, IreeMobileNet) { expect_best_at_lower_bound("idealloc/iree/iree_mobilenet.csv"); }

}  // namespace
}  // namespace tidepool::packing
