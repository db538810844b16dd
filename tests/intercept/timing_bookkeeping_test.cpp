// The bookkeeping of device timing that needs no GPU: pairing CUPTI's external-correlation (or
// runtime API) and activity records into DeviceTiming records, and the per-kind counts that event timing samples by.
#include <gtest/gtest.h>

#include "analyzer/trace/format.h"
#include "intercept/cupti_correlation.h"
#include "intercept/kind_counts.h"

namespace tidepool::intercept {
namespace {

TEST(CuptiCorrelation, PairsMeetInEitherOrderAndCountFromTheOrigin) {
  CuptiCorrelation c(1'000);
  EXPECT_FALSE(c.on_external(7, 42));
  EXPECT_EQ(c.on_activity(7, 1'500, 2'500), (trace::DeviceTiming{42, 500, 1'500}));
  EXPECT_FALSE(c.on_activity(8, 3'000, 3'200));
  EXPECT_EQ(c.on_external(8, 43), (trace::DeviceTiming{43, 2'000, 2'200}));
  EXPECT_EQ(c.unmatched(), 0u);
}

TEST(CuptiCorrelation, ForeignActivityWaitsAloneAndTimesBeforeTheOriginClamp) {
  CuptiCorrelation c(1'000);
  EXPECT_FALSE(c.on_activity(9, 10, 20));  // a kernel tidepool did not time
  EXPECT_FALSE(c.on_external(10, 44));
  EXPECT_EQ(c.unmatched(), 2u);
  EXPECT_EQ(c.on_activity(10, 900, 1'100), (trace::DeviceTiming{44, 0, 100}));
  EXPECT_EQ(c.unmatched(), 1u);
}

TEST(CuptiCorrelation, UnmatchedHalvesAreBounded) {
  CuptiCorrelation c(0);
  for (uint32_t i = 0; i < CuptiCorrelation::kMaxUnmatched + 10; ++i) c.on_activity(i, 1, 2);
  EXPECT_LE(c.unmatched(), CuptiCorrelation::kMaxUnmatched);
  CuptiCorrelation calls(0);
  for (uint64_t i = 0; i < CuptiCorrelation::kMaxUnmatched + 10; ++i) calls.on_call(1, i, i);
  EXPECT_LE(calls.unmatched(), CuptiCorrelation::kMaxUnmatched);
}

// A program on the CUDA runtime: the operation made inside a runtime call (same thread, within
// its start and end) takes the call's correlation id, which its kernel's activity record carries.
TEST(CuptiCorrelation, ARuntimeCallStandsForTheOperationMadeInsideIt) {
  CuptiCorrelation c(1'000);
  c.on_call(/*thread=*/5, /*at_ns=*/2'000, /*op_id=*/50);
  c.on_call(6, 2'010, 60);  // another thread, inside a call of its own
  c.on_call(5, 3'000, 51);
  EXPECT_FALSE(c.on_runtime_call(/*correlation=*/70, /*thread=*/5, 1'990, 2'100));
  EXPECT_EQ(c.on_activity(70, 4'000, 4'500), (trace::DeviceTiming{50, 3'000, 3'500}));
  EXPECT_FALSE(c.on_activity(71, 5'000, 5'100));  // the activity can come first
  EXPECT_EQ(c.on_runtime_call(71, 5, 2'900, 3'100), (trace::DeviceTiming{51, 4'000, 4'100}));
  EXPECT_EQ(c.unmatched(), 1u);  // thread 6's operation waits for its call
  EXPECT_FALSE(c.on_runtime_call(72, 6, 2'000, 2'020));
  EXPECT_EQ(c.on_activity(72, 6'000, 6'001), (trace::DeviceTiming{60, 5'000, 5'001}));
  EXPECT_EQ(c.unmatched(), 0u);
}

// Operations made outside any runtime call (the driver API called directly) are dropped by the
// next runtime call on their thread; a runtime call with two operations inside matches neither.
TEST(CuptiCorrelation, RuntimeCallsDoNotGuess) {
  CuptiCorrelation c(0);
  c.on_call(5, 100, 1);  // a direct driver call: no runtime call around it
  c.on_call(5, 300, 2);
  c.on_call(5, 310, 3);
  EXPECT_FALSE(c.on_runtime_call(80, 5, 200, 400));
  EXPECT_EQ(c.unmatched(), 0u);
  EXPECT_FALSE(c.on_activity(80, 1'000, 2'000));
  EXPECT_EQ(c.unmatched(), 1u);  // the call's activity stays unmatched
  EXPECT_FALSE(c.on_runtime_call(81, 9, 0, 1'000));  // a thread with nothing noted
}

TEST(KindCounts, CountsEachKindApartThroughGrowth) {
  intercept::KindCounts counts;
  for (uint64_t kind = 0; kind < 1000; ++kind) EXPECT_EQ(counts.meet(kind * 0x10001), 0u);
  for (uint64_t kind = 0; kind < 1000; ++kind) EXPECT_EQ(counts.meet(kind * 0x10001), 1u);
  EXPECT_EQ(counts.meet(0), 2u);
  EXPECT_EQ(counts.meet(12345), 0u);
}

}  // namespace
}  // namespace tidepool::intercept
