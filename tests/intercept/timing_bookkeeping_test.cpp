// The bookkeeping of device timing that needs no GPU: pairing CUPTI's external-correlation and
// activity records into DeviceTiming records, and the per-kind counts that event timing samples by.
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
