// The figures issue 6 sets for train_mlp in its default configuration on simcuda (label slow: each
// run takes tens of seconds):
//  - second run, plan cached, --optimize=pool: peak_device_bytes <= 1.05 x (the iteration's lower
//    bound + persistent bytes, from `tidepool plan --pool` on the first run's trace) and never above
//    the unoptimized peak. (The issue asks for below it; that no allocator can do here: simcuda
//    counts requested bytes exactly, without rounding or caching, so the unoptimized peak is the
//    largest sum of live bytes, at most the lower bound + persistent bytes, which no packing goes
//    under. The pool equals it; going below takes swapping, the next figure.)
//  - second run, plan cached, --optimize=pool,swap --max-slowdown 5: peak at least 30% below the
//    unoptimized one, simulated time at most 5% above it;
//  - with SIMCUDA_MEMORY at 70% of the unoptimized peak: fails without tidepool (out of memory),
//    completes under --optimize on its first run (no cached plan) with the same checksum.
// Every optimized run must also give the unoptimized checksum.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "example_runs.h"

namespace tidepool::targets {
namespace {

namespace fs = std::filesystem;

TEST(TrainMlpTargets, PoolPeakWithCachedPlanNearTheLowerBound) {
  ScratchDir scratch("pool");
  const RunOutcome off = train_mlp_unoptimized(scratch.path() / "off");
  ASSERT_EQ(off.exit_code, 0) << off.describe();
  ASSERT_TRUE(off.peak_device_bytes.has_value());
  const auto [first, second] = train_mlp_first_and_cached(scratch.path(), "pool", {});
  ASSERT_EQ(first.exit_code, 0) << first.describe();
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_EQ(first.checksum, off.checksum);
  EXPECT_EQ(second.checksum, off.checksum);
  ASSERT_TRUE(second.peak_device_bytes.has_value());

  const fs::path plan = scratch.path() / "plan.json";
  const auto [status, output] = run_shell(shell_words({tidepool_binary(), "plan", "--pool", "--time-limit", "2",
                                                       only_trace_in(first.trace_dir).string(), "-o",
                                                       plan.string()}) + " 2>&1");
  ASSERT_EQ(status, 0) << output;
  const nlohmann::json pool = read_json(plan).at("pool");
  const uint64_t floor = pool.at("lower_bound_bytes").get<uint64_t>() + pool.at("persistent_bytes").get<uint64_t>();
  std::printf("train_mlp pool: peak %llu (cached plan), unoptimized %llu, lower bound + persistent %llu: %.4fx\n",
              static_cast<unsigned long long>(*second.peak_device_bytes),
              static_cast<unsigned long long>(*off.peak_device_bytes), static_cast<unsigned long long>(floor),
              ratio(*second.peak_device_bytes, floor));
  EXPECT_LE(static_cast<double>(*second.peak_device_bytes), 1.05 * static_cast<double>(floor));
  EXPECT_LE(*second.peak_device_bytes, *off.peak_device_bytes);
}

TEST(TrainMlpTargets, SeventyPercentOfThePeakFailsWithoutTidepoolAndCompletesWithIt) {
  ScratchDir scratch("limited");
  const RunOutcome off = train_mlp_unoptimized(scratch.path() / "off");
  ASSERT_EQ(off.exit_code, 0) << off.describe();
  ASSERT_TRUE(off.peak_device_bytes.has_value());
  const auto limit = static_cast<uint64_t>(0.7 * static_cast<double>(*off.peak_device_bytes));
  const RunOutcome limited = train_mlp_unoptimized(scratch.path() / "off-limited", limit);
  EXPECT_NE(limited.exit_code, 0);
  EXPECT_TRUE(limited.out_of_memory()) << limited.describe();
  const RunOutcome optimized = run_example(
      {.example = "train_mlp", .optimize = "pool,swap", .plan_cache = scratch.path() / "cache",
       .memory_limit_bytes = limit},
      scratch.path() / "optimized-limited");
  ASSERT_EQ(optimized.exit_code, 0) << optimized.describe();
  EXPECT_EQ(optimized.checksum, off.checksum);
}

TEST(TrainMlpTargets, PoolAndSwapWithCachedPlanCutsThePeakAThirdAtMostFivePercentSlower) {
  ScratchDir scratch("poolswap");
  const RunOutcome off = train_mlp_unoptimized(scratch.path() / "off");
  ASSERT_EQ(off.exit_code, 0) << off.describe();
  ASSERT_TRUE(off.peak_device_bytes && off.simulated_time_ns);
  const auto [first, second] = train_mlp_first_and_cached(scratch.path(), "pool,swap", {"--max-slowdown", "5"});
  ASSERT_EQ(first.exit_code, 0) << first.describe();
  ASSERT_EQ(second.exit_code, 0) << second.describe();
  EXPECT_EQ(first.checksum, off.checksum);
  EXPECT_EQ(second.checksum, off.checksum);
  ASSERT_TRUE(second.peak_device_bytes && second.simulated_time_ns);
  std::printf("train_mlp pool,swap: peak %.4fx, simulated time %.4fx of the unoptimized run (cached plan)\n",
              ratio(*second.peak_device_bytes, *off.peak_device_bytes),
              ratio(*second.simulated_time_ns, *off.simulated_time_ns));
  // The planned peak is 0.6990x; one run of session 43's CI peaked at 0.7098x, 16 MiB over the plan,
  // and no run since has. A miss prints the run's decisions.
  EXPECT_LE(static_cast<double>(*second.peak_device_bytes), 0.70 * static_cast<double>(*off.peak_device_bytes))
      << runtime_decisions(second);
  EXPECT_LE(static_cast<double>(*second.simulated_time_ns), 1.05 * static_cast<double>(*off.simulated_time_ns))
      << runtime_decisions(second);
}

}  // namespace
}  // namespace tidepool::targets
