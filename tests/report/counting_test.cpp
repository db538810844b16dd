// The report counts device memory exactly as simcuda's SIMCUDA_STATS does (issue 2, "Ground
// truth"), on hand-made traces.
#include <gtest/gtest.h>

#include "analyzer/report/analyze.h"
#include "trace_builder.h"

namespace tidepool::report {
namespace {

using testing::TraceBuilder;
using trace::AllocKind;

constexpr uint64_t MiB = 1 << 20;

TEST(ReportCounting, DeviceAllocationsAndFrees) {
  TraceBuilder b;
  const uint64_t a = b.alloc(AllocKind::device, 10 * MiB);
  const uint64_t p = b.alloc(AllocKind::device_pitched, 512 * 100);  // pitch * height
  b.free(a);
  const uint64_t c = b.alloc(AllocKind::device, 4 * MiB);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 10 * MiB + 51200);
  EXPECT_EQ(r.allocations, 3u);
  EXPECT_EQ(r.frees, 1u);
  EXPECT_EQ(r.leaked_bytes, 4 * MiB + 51200);
  EXPECT_EQ(r.leaked_allocations, 2u);
  ASSERT_EQ(r.leaks.size(), 2u);
  EXPECT_EQ(r.leaks[0].alloc_id, c);
  EXPECT_EQ(r.leaks[1].alloc_id, p);
  EXPECT_EQ(r.peak_seq, 2u);
  EXPECT_EQ(r.peak_time_ns, 2000u);
  ASSERT_EQ(r.live_at_peak.size(), 2u);
  EXPECT_EQ(r.live_at_peak[0].alloc_id, a);
  EXPECT_EQ(r.live_at_peak[1].alloc_id, p);
}

TEST(ReportCounting, StreamOrderedAndPoolCountAtTheHostCall) {
  TraceBuilder b;
  const uint64_t a = b.alloc(AllocKind::stream_ordered, 100, 1, 0, 0x51);
  b.free(a, AllocKind::stream_ordered);  // cuMemFreeAsync: gone at the call, not when it runs
  const uint64_t p = b.alloc(AllocKind::pool, 60, 1, 0, 0x51);
  b.alloc(AllocKind::stream_ordered, 50, 1, 0, 0x52);
  b.free(p, AllocKind::pool);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 110u);
  EXPECT_EQ(r.allocations, 3u);
  EXPECT_EQ(r.frees, 2u);
  EXPECT_EQ(r.leaked_bytes, 50u);
}

TEST(ReportCounting, HostAndManagedMemoryAreCountedApart) {
  TraceBuilder b;
  b.alloc(AllocKind::host_pinned, 1000);
  b.alloc(AllocKind::managed, 2000);
  b.alloc(AllocKind::host_registered, 3000);
  b.alloc(AllocKind::array, 4000);
  b.alloc(AllocKind::vmm_reserve, 8 * MiB);
  b.alloc(AllocKind::imported, 5000);
  const uint64_t d = b.alloc(AllocKind::device, 10);
  b.free(1, AllocKind::host_pinned);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 10u);
  EXPECT_EQ(r.allocations, 1u);
  EXPECT_EQ(r.frees, 0u);
  EXPECT_EQ(r.leaked_bytes, 10u);
  ASSERT_EQ(r.leaks.size(), 1u);
  EXPECT_EQ(r.leaks[0].alloc_id, d);
  ASSERT_EQ(r.kinds.size(), 7u);
  EXPECT_EQ(r.kinds[0].kind, AllocKind::device);  // in enum order
  EXPECT_EQ(r.kinds[1].kind, AllocKind::vmm_reserve);
  for (const KindTotals& k : r.kinds) {
    if (k.kind != AllocKind::host_pinned) continue;
    EXPECT_EQ(k.allocations, 1u);
    EXPECT_EQ(k.frees, 1u);
    EXPECT_EQ(k.peak_live_bytes, 1000u);
    EXPECT_EQ(k.live_bytes_at_exit, 0u);
  }
}

// cuMemCreate + cuMemMap, then cuMemRelease before cuMemUnmap: the memory (and the free) goes at
// the unmap.
TEST(ReportCounting, PhysicalReleasedThenUnmapped) {
  TraceBuilder b;
  const uint64_t p = b.alloc(AllocKind::vmm_physical, 2 * MiB);
  b.alloc(AllocKind::vmm_reserve, 4 * MiB);
  b.add(trace::VmmMap{.address = 0x10000000, .size = 2 * MiB, .handle = 0x5001,
                      .physical_alloc_id = p});
  b.free(p, AllocKind::vmm_physical);
  b.alloc(AllocKind::device, MiB);  // the physical memory is still held: 3 MiB live
  {
    const ProcessReport r = analyze(b.trace(), "t");
    EXPECT_EQ(r.frees, 0u);
    EXPECT_EQ(r.leaked_bytes, 3 * MiB);
  }
  b.add(trace::VmmUnmap{.address = 0x10000000, .size = 2 * MiB});
  b.alloc(AllocKind::device, 2 * MiB);  // 3 MiB again, no higher
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 3 * MiB);
  EXPECT_EQ(r.allocations, 3u);
  EXPECT_EQ(r.frees, 1u);
  EXPECT_EQ(r.leaked_bytes, 3 * MiB);
}

// Unmapped first, released later: the free is at the release.
TEST(ReportCounting, PhysicalUnmappedThenReleased) {
  TraceBuilder b;
  const uint64_t p = b.alloc(AllocKind::vmm_physical, 2 * MiB);
  b.add(trace::VmmMap{.address = 0x10000000, .size = 2 * MiB, .physical_alloc_id = p});
  b.add(trace::VmmMap{.address = 0x20000000, .size = 2 * MiB, .physical_alloc_id = p});
  b.add(trace::VmmUnmap{.address = 0x10000000, .size = 2 * MiB});
  b.add(trace::VmmUnmap{.address = 0x20000000, .size = 2 * MiB});
  b.alloc(AllocKind::device, MiB);  // not yet released: 3 MiB live
  b.free(p, AllocKind::vmm_physical);
  const uint64_t never_mapped = b.alloc(AllocKind::vmm_physical, 2 * MiB);
  b.free(never_mapped, AllocKind::vmm_physical);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 3 * MiB);
  EXPECT_EQ(r.allocations, 3u);
  EXPECT_EQ(r.frees, 2u);
  EXPECT_EQ(r.leaked_bytes, MiB);
}

// One cuMemUnmap may cover several mappings; a mapping outside it stays.
TEST(ReportCounting, UnmapOfARangeCoveringSeveralMappings) {
  TraceBuilder b;
  const uint64_t p = b.alloc(AllocKind::vmm_physical, 2 * MiB);
  const uint64_t q = b.alloc(AllocKind::vmm_physical, 2 * MiB);
  b.add(trace::VmmMap{.address = 0x10000000, .size = 2 * MiB, .physical_alloc_id = p});
  b.add(trace::VmmMap{.address = 0x10200000, .size = 2 * MiB, .physical_alloc_id = q});
  b.add(trace::VmmMap{.address = 0x30000000, .size = 2 * MiB, .physical_alloc_id = q});
  b.free(p, AllocKind::vmm_physical);
  b.free(q, AllocKind::vmm_physical);
  b.add(trace::VmmUnmap{.address = 0x10000000, .size = 4 * MiB});
  EXPECT_EQ(analyze(b.trace(), "t").frees, 1u);  // q is still mapped at 0x30000000
  b.add(trace::VmmUnmap{.address = 0x30000000, .size = 2 * MiB});
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.frees, 2u);
  EXPECT_EQ(r.leaked_bytes, 0u);
}

TEST(ReportCounting, ContextDestructionFreesWhatItHeld) {
  TraceBuilder b;
  b.add(trace::ContextCreate{.context = 1, .device = 0, .primary = true});
  b.add(trace::ContextCreate{.context = 2, .device = 0});
  const uint64_t a = b.alloc(AllocKind::device, 100, 1);
  b.alloc(AllocKind::stream_ordered, 200, 1);
  b.alloc(AllocKind::host_pinned, 300, 1);
  b.alloc(AllocKind::device, 400, 2);
  b.add(trace::ContextDestroy{.context = 1, .device = 0, .primary_reset = true});
  b.free(a);  // already gone with its context: ignored
  b.alloc(AllocKind::device, 50, 2);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 700u);
  EXPECT_EQ(r.allocations, 4u);
  EXPECT_EQ(r.frees, 0u);  // simcuda counts cuMemFree*, not context destruction
  EXPECT_EQ(r.leaked_bytes, 450u);
  EXPECT_EQ(r.leaked_allocations, 2u);
}

TEST(ReportCounting, LaunchesKernelsAndSites) {
  TraceBuilder b;
  b.trace().stacks[1] = {0x1000};
  const uint64_t x = b.alloc(AllocKind::device, 1000, 1, 1);
  const uint64_t y = b.alloc(AllocKind::device, 3000, 1, 1);
  const uint64_t z = b.alloc(AllocKind::device, 7000, 1, 2);
  b.launch("small", {x});
  b.launch("big", {y, z, y});  // y counts once per launch
  b.launch("big", {z});
  trace::Launch captured{.op_id = 99, .kernel_name_id = b.string("small"), .captured = true};
  b.add(captured);
  b.add(trace::GraphLaunch{.op_id = 100, .graph_exec = 0x9, .stream = 0});
  b.free(z);
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.kernel_launches, 3u);
  EXPECT_EQ(r.graph_launches, 1u);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].name, "big");
  EXPECT_EQ(r.kernels[0].launches, 2u);
  EXPECT_EQ(r.kernels[0].bytes_touched, 10000u + 7000u);
  EXPECT_EQ(r.kernels[0].max_bytes_per_launch, 10000u);
  EXPECT_EQ(r.kernels[1].name, "small");
  EXPECT_EQ(r.kernels[1].bytes_touched, 1000u);
  ASSERT_EQ(r.sites.size(), 2u);
  EXPECT_EQ(r.sites[0].stack_id, 2u);
  EXPECT_EQ(r.sites[0].bytes_allocated, 7000u);
  EXPECT_EQ(r.sites[0].leaked_bytes, 0u);
  EXPECT_EQ(r.sites[0].live_at_peak_bytes, 7000u);
  EXPECT_EQ(r.sites[1].stack_id, 1u);
  EXPECT_EQ(r.sites[1].allocations, 2u);
  EXPECT_EQ(r.sites[1].leaked_bytes, 4000u);
  // No module covers the frame: its address is shown.
  EXPECT_EQ(r.stacks.at(1), std::vector<std::string>{"0x1000"});
}

TEST(ReportCounting, SizeHistogram) {
  TraceBuilder b;
  for (uint64_t size : {0, 1, 2, 3, 4, 1023, 1024, 1025}) b.alloc(AllocKind::device, size);
  b.alloc(AllocKind::host_pinned, 4);  // not device memory: not in the histogram
  const ProcessReport r = analyze(b.trace(), "t");
  ASSERT_EQ(r.size_histogram.size(), 5u);
  EXPECT_EQ(r.size_histogram[0].min_bytes, 0u);
  EXPECT_EQ(r.size_histogram[0].allocations, 2u);
  EXPECT_EQ(r.size_histogram[1].min_bytes, 2u);
  EXPECT_EQ(r.size_histogram[1].allocations, 2u);
  EXPECT_EQ(r.size_histogram[2].min_bytes, 4u);
  EXPECT_EQ(r.size_histogram[3].min_bytes, 512u);
  EXPECT_EQ(r.size_histogram[4].min_bytes, 1024u);
  EXPECT_EQ(r.size_histogram[4].allocations, 2u);
  EXPECT_EQ(r.size_histogram[4].bytes, 2049u);
}

TEST(ReportCounting, PerDevicePeaks) {
  TraceBuilder b;
  b.add(trace::Alloc{.alloc_id = 1, .kind = AllocKind::device, .size = 100, .device = 0});
  b.add(trace::Alloc{.alloc_id = 2, .kind = AllocKind::device, .size = 70, .device = 1});
  b.free(1);
  b.add(trace::Alloc{.alloc_id = 3, .kind = AllocKind::device, .size = 50, .device = 1});
  b.add(trace::Alloc{.alloc_id = 4, .kind = AllocKind::host_pinned, .size = 999, .device = 2});
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 170u);
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices[0].device, 0);
  EXPECT_EQ(r.devices[0].peak_requested_bytes, 100u);
  EXPECT_EQ(r.devices[0].leaked_bytes, 0u);
  EXPECT_EQ(r.devices[1].device, 1);
  EXPECT_EQ(r.devices[1].peak_requested_bytes, 120u);
  EXPECT_EQ(r.devices[1].leaked_bytes, 120u);
}

TEST(ReportCounting, NvtxRangesOpenAtThePeak) {
  TraceBuilder b;
  b.add(trace::RangePush{.name_id = b.string("step")});
  b.add(trace::RangePush{.name_id = b.string("forward")});
  b.add(trace::RangePop{});
  b.add(trace::RangePush{.name_id = b.string("backward")});
  b.alloc(AllocKind::device, 100);
  b.add(trace::RangePop{});
  b.add(trace::RangePop{});
  EXPECT_EQ(analyze(b.trace(), "t").peak_nvtx_ranges,
            (std::vector<std::string>{"step", "backward"}));
}

TEST(ReportCounting, EmptyTrace) {
  TraceBuilder b;
  const ProcessReport r = analyze(b.trace(), "t");
  EXPECT_EQ(r.peak_requested_bytes, 0u);
  EXPECT_EQ(r.allocations, 0u);
  EXPECT_TRUE(r.live_at_peak.empty());
}

}  // namespace
}  // namespace tidepool::report
