// The report's runtime-decisions section on hand-built traces: every decision record kind counted,
// reasons tallied, stalls, the peaks with and without optimization, and no section without
// decisions.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "analyzer/report/analyze.h"
#include "analyzer/report/json_report.h"
#include "analyzer/report/runtime_decisions.h"
#include "analyzer/report/text_report.h"
#include "decisions_trace.h"
#include "trace_builder.h"

namespace tidepool::report {
namespace {

using testing::DecisionsExpected;
using testing::TraceBuilder;
using trace::AllocKind;

constexpr uint64_t MiB = 1 << 20;

TEST(RuntimeDecisions, AbsentWithoutDecisionRecords) {
  TraceBuilder b;
  const uint64_t a = b.alloc(AllocKind::device, MiB);
  b.launch("k", {a});
  b.free(a);
  EXPECT_FALSE(runtime_decisions(b.trace()).has_value());
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(text_report({&r, 1}).find("runtime decisions"), std::string::npos);
  const auto json = nlohmann::json::parse(json_report({&r, 1}));
  const auto& process = json["processes"][0];
  EXPECT_FALSE(process.contains("runtime_decisions"));
  for (const auto& [key, value] : process["runtime"].items()) EXPECT_EQ(value, 0) << key;
}

TEST(RuntimeDecisions, EveryRecordKindIsCounted) {
  const auto d = runtime_decisions(testing::decisions_trace());
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->plans.size(), 1u);
  EXPECT_EQ(d->plans[0].fingerprint, "fp-0123abcd");
  EXPECT_EQ(d->plans[0].arena_bytes, 12 * MiB);
  EXPECT_EQ(d->plans[0].planned_peak_bytes, 20 * MiB);
  EXPECT_EQ(d->plans[0].swaps, 1u);
  EXPECT_EQ(d->pool_hits, 2u);
  EXPECT_EQ(d->pool_misses, 2u);
  ASSERT_EQ(d->miss_reasons.size(), 1u);
  EXPECT_EQ(d->miss_reasons[0].reason, "size differs from the plan");
  EXPECT_EQ(d->miss_reasons[0].count, 2u);
  EXPECT_EQ(d->fallbacks, 1u);
  ASSERT_EQ(d->fallback_reasons.size(), 1u);
  EXPECT_EQ(d->fallback_reasons[0].reason, "no planned slot");
  EXPECT_EQ(d->swap_outs.count, 2u);
  EXPECT_EQ(d->swap_outs.bytes, 10 * MiB);
  EXPECT_EQ(d->swap_outs.device_ns, 4000u);
  EXPECT_EQ(d->swap_ins.count, 2u);
  EXPECT_EQ(d->swap_ins.bytes, 10 * MiB);
  EXPECT_EQ(d->swap_ins.device_ns, 6000u);
  EXPECT_EQ(d->on_demand_swap_ins.count, 1u);
  EXPECT_EQ(d->on_demand_swap_ins.bytes, 8 * MiB);
  EXPECT_TRUE(d->stall_known);
  EXPECT_EQ(d->on_demand_swap_ins.device_ns, 4000u);
  EXPECT_EQ(d->evictions, 1u);
  EXPECT_EQ(d->bytes_evicted, MiB);
  EXPECT_EQ(d->returns_to_recording, 1u);
  ASSERT_EQ(d->return_reasons.size(), 1u);
  EXPECT_EQ(d->return_reasons[0].reason, "misses above 10% of the iteration");
}

TEST(RuntimeDecisions, PeaksWithAndWithoutOptimization) {
  const auto d = runtime_decisions(testing::decisions_trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->requested_peak_bytes, DecisionsExpected::requested_peak);
  EXPECT_EQ(d->optimized_peak_bytes, DecisionsExpected::optimized_peak);
  EXPECT_EQ(d->planned_peak_bytes, DecisionsExpected::planned_peak);
  // The program's own peak is the report's headline peak.
  EXPECT_EQ(analyze(testing::decisions_trace(), "t").peak_requested_bytes, DecisionsExpected::requested_peak);
}

// An arena that serves every allocation of an iteration holds the arena, not their sum.
TEST(RuntimeDecisions, ArenaReplacesTheAllocationsItServes) {
  TraceBuilder b;
  b.add(trace::PlanInstalled{.arena_bytes = 6 * MiB, .planned_peak_bytes = 6 * MiB});
  for (int step = 0; step < 3; ++step) {
    const uint64_t x = b.alloc(AllocKind::stream_ordered, 4 * MiB, 1, 0, 0x51);
    b.add(trace::PoolHit{.alloc_id = x, .offset = 0});
    const uint64_t y = b.alloc(AllocKind::stream_ordered, 2 * MiB, 1, 0, 0x51);
    b.add(trace::PoolHit{.alloc_id = y, .offset = 4 * MiB});
    b.free(x, AllocKind::stream_ordered);
    b.free(y, AllocKind::stream_ordered);
  }
  const auto d = runtime_decisions(b.trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->pool_hits, 6u);
  EXPECT_EQ(d->requested_peak_bytes, 6 * MiB);
  EXPECT_EQ(d->optimized_peak_bytes, 6 * MiB);
}

// An arena counts once it serves an allocation (a plan installed that never served holds none),
// and after its plan is left only while allocations it served are still live.
TEST(RuntimeDecisions, AnArenaCountsFromItsFirstHitUntilItsPlanIsLeftAndEmpty) {
  TraceBuilder b;
  b.alloc(AllocKind::device, MiB);  // persistent
  b.add(trace::PlanInstalled{.arena_bytes = 10 * MiB, .planned_peak_bytes = 11 * MiB});
  b.add(trace::ReturnToRecording{});
  b.add(trace::PlanInstalled{.arena_bytes = 4 * MiB, .planned_peak_bytes = 5 * MiB});
  const uint64_t served = b.alloc(AllocKind::device, 3 * MiB);
  b.add(trace::PoolHit{.alloc_id = served, .offset = 0});
  b.add(trace::ReturnToRecording{});
  b.alloc(AllocKind::device, 2 * MiB);  // the left arena still holds `served`: 1 + 4 + 2
  b.free(served);
  b.alloc(AllocKind::device, 3 * MiB);  // the arena is gone: 1 + 2 + 3
  const auto d = runtime_decisions(b.trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->plans.size(), 2u);
  EXPECT_EQ(d->planned_peak_bytes, 11 * MiB);  // the largest installed
  EXPECT_EQ(d->requested_peak_bytes, 6 * MiB);
  EXPECT_EQ(d->optimized_peak_bytes, 7 * MiB);
  ASSERT_EQ(d->return_reasons.size(), 1u);
  EXPECT_EQ(d->return_reasons[0].reason, "(no reason given)");
  EXPECT_EQ(d->return_reasons[0].count, 2u);
}

// On-demand swap-ins without device times: the stall is unknown, never reported as 0.
TEST(RuntimeDecisions, StallUnknownWithoutTimes) {
  TraceBuilder b;
  const uint64_t a = b.alloc(AllocKind::device, 4 * MiB);
  b.add(trace::SwapOut{.alloc_id = a, .bytes = 4 * MiB, .start_ns = 10, .end_ns = 20});
  b.add(trace::SwapIn{.alloc_id = a, .bytes = 4 * MiB, .on_demand = true});
  const auto d = runtime_decisions(b.trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_FALSE(d->stall_known);
  EXPECT_EQ(d->on_demand_swap_ins.count, 1u);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_NE(text_report({&r, 1}).find("time stalled unknown"), std::string::npos);
  const auto json = nlohmann::json::parse(json_report({&r, 1}));
  EXPECT_TRUE(json["processes"][0]["runtime_decisions"]["swaps"]["stalled_ns"].is_null());
}

// A swap record rounded up to the driver's granularity never takes more than the buffer's size
// off the device count.
TEST(RuntimeDecisions, RoundedSwapBytesAreCappedAtTheBufferSize) {
  TraceBuilder b;
  const uint64_t small = b.alloc(AllocKind::device, MiB);
  b.alloc(AllocKind::device, 3 * MiB);
  b.add(trace::SwapOut{.alloc_id = small, .bytes = 2 * MiB});
  b.alloc(AllocKind::device, 3 * MiB);
  const auto d = runtime_decisions(b.trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->requested_peak_bytes, 7 * MiB);
  EXPECT_EQ(d->optimized_peak_bytes, 6 * MiB);
}

// A buffer whose mapping was deferred holds no device memory from its Alloc until its first use,
// and counts like any other from then on.
TEST(RuntimeDecisions, ADeferredMappingCountsFromTheFirstUse) {
  TraceBuilder b;
  const uint64_t early = b.alloc(AllocKind::device, 4 * MiB);
  const uint64_t deferred = b.alloc(AllocKind::device, 8 * MiB);
  b.add(trace::MapDeferred{.alloc_id = deferred});
  b.launch("k", {early});
  b.free(early);  // held 0: the deferred buffer is not mapped yet
  b.add(trace::MappedAtFirstUse{.alloc_id = deferred});
  b.launch("k", {deferred});
  const uint64_t after = b.alloc(AllocKind::device, 2 * MiB);  // 8 + 2
  b.free(after);
  b.free(deferred);
  const uint64_t unused = b.alloc(AllocKind::device, 16 * MiB);  // deferred and never used
  b.add(trace::MapDeferred{.alloc_id = unused});
  b.free(unused);
  const auto d = runtime_decisions(b.trace());
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->maps_deferred, 2u);
  EXPECT_EQ(d->mapped_at_first_use, 1u);
  EXPECT_EQ(d->requested_peak_bytes, 16 * MiB);
  EXPECT_EQ(d->optimized_peak_bytes, 10 * MiB);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_NE(text_report({&r, 1}).find("mapped at their first use: 1 of 2 deferred"), std::string::npos);
  const auto json = nlohmann::json::parse(json_report({&r, 1}));
  EXPECT_EQ(json["processes"][0]["runtime"]["maps_deferred"], 2);
  EXPECT_EQ(json["processes"][0]["runtime"]["mapped_at_first_use"], 1);
}

}  // namespace
}  // namespace tidepool::report
