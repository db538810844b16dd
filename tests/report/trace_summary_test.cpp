// Reports of trace files read in order: `tidepool run`'s end-of-run figures agree with the full
// report, and the full report of a file read in order is the report of the trace in memory,
// however the file's events are ordered (each thread's events reach it in their own chunks).
#include "analyzer/report/trace_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "analyzer/report/analyze.h"
#include "analyzer/report/iteration_plans.h"
#include "analyzer/report/json_report.h"
#include "analyzer/trace/in_order.h"
#include "analyzer/trace/reader.h"
#include "analyzer/trace/save.h"
#include "decisions_trace.h"
#include "tests/support/files.h"
#include "trace_builder.h"

namespace tidepool::report {
namespace {

using testing::TraceBuilder;
using trace::AllocKind;

// `trace` written with its events in `order` (indices into trace.events).
std::filesystem::path save_in_order(trace::Trace trace, const std::vector<size_t>& order,
                                    const std::filesystem::path& path) {
  std::vector<trace::Event> events;
  for (size_t i : order) events.push_back(trace.events[i]);
  trace.events = std::move(events);
  trace::save_trace(trace, path);
  return path;
}

void expect_same_figures(const std::filesystem::path& path) {
  const TraceSummary s = summarize_trace(path);
  const ProcessReport r = analyze(trace::read_trace(path), path.string());
  EXPECT_EQ(s.pid, r.pid);
  EXPECT_EQ(s.rank, r.rank);
  EXPECT_EQ(s.truncated, r.truncated);
  EXPECT_EQ(s.peak_requested_bytes, r.peak_requested_bytes);
  EXPECT_EQ(s.allocations, r.allocations);
  EXPECT_EQ(s.frees, r.frees);
  EXPECT_EQ(s.kernel_launches, r.kernel_launches);
  EXPECT_EQ(s.leaked_bytes, r.leaked_bytes);
}

// A workload of every kind of memory event: device and stream-ordered allocations and frees,
// physical memory mapped and unmapped, a context destroyed with allocations still in it, graph
// memory nodes and captured launches (neither counted), and launches.
trace::Trace mixed_workload(uint64_t seed) {
  TraceBuilder b(4242, 3);
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> live;
  for (int step = 0; step < 3000; ++step) {
    switch (rng() % 8) {
      case 0:
      case 1:
      case 2: live.push_back(b.alloc(rng() % 2 ? AllocKind::device : AllocKind::stream_ordered, 256 + rng() % 100000, 1 + rng() % 2)); break;
      case 3:
      case 4:
        if (!live.empty()) {
          const size_t k = rng() % live.size();
          b.free(live[k]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
        }
        break;
      case 5: b.launch(std::string(1, static_cast<char>('a' + rng() % 5)), live.empty() ? std::vector<uint64_t>{} : std::vector{live.back()}); break;
      case 6: {
        const uint64_t physical = b.alloc(AllocKind::vmm_physical, 1 << 21);
        const uint64_t address = 0x100000000 + (rng() % 1000) * (1 << 21);
        b.add(trace::VmmMap{.address = address, .size = 1 << 21, .handle = 0x5000 + physical, .physical_alloc_id = physical});
        if (rng() % 2) b.free(physical, AllocKind::vmm_physical);  // released while mapped
        b.add(trace::VmmUnmap{.address = address, .size = 1 << 21});
        break;
      }
      default: {
        trace::Alloc node{.alloc_id = 900000 + static_cast<uint64_t>(step), .kind = AllocKind::stream_ordered,
                          .size = 1 << 24, .captured = true};
        b.add(node);
        trace::Launch captured{.op_id = 1, .captured = true};
        b.add(captured);
      }
    }
    if (step == 2000) b.add(trace::ContextDestroy{.context = 2, .device = 0});
  }
  return b.trace();
}

TEST(TraceSummary, AgreesWithTheReportInSequenceOrder) {
  test_support::TempDir dir("tidepool-summary");
  const trace::Trace t = mixed_workload(1);
  std::vector<size_t> order(t.events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  expect_same_figures(save_in_order(t, order, dir.path() / "t.tpt"));
  const TraceSummary s = summarize_trace(dir.path() / "t.tpt");
  EXPECT_EQ(s.pid, 4242u);
  EXPECT_EQ(s.rank, 3);
  EXPECT_GT(s.peak_requested_bytes, 0u);
  EXPECT_GT(s.kernel_launches, 0u);
}

TEST(TraceSummary, AgreesWithTheReportWhateverTheFileOrder) {
  test_support::TempDir dir("tidepool-summary");
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    const trace::Trace t = mixed_workload(seed);
    // As threads' chunks reach a file: events dealt to three threads, each thread's in order, its
    // chunks of 40 interleaved with the others' at random.
    std::mt19937_64 rng(seed);
    std::vector<std::vector<size_t>> threads(3);
    for (size_t i = 0; i < t.events.size(); ++i) threads[rng() % 3].push_back(i);
    std::vector<size_t> chunked;
    std::vector<size_t> at(3, 0);
    while (chunked.size() < t.events.size()) {
      auto& thread = threads[rng() % 3];
      size_t& from = at[&thread - threads.data()];
      for (size_t n = 0; n < 40 && from < thread.size(); ++n) chunked.push_back(thread[from++]);
    }
    expect_same_figures(save_in_order(t, chunked, dir.path() / "chunked.tpt"));
    std::vector<size_t> shuffled = chunked;
    std::ranges::shuffle(shuffled, rng);
    expect_same_figures(save_in_order(t, shuffled, dir.path() / "shuffled.tpt"));
  }
}

TEST(TraceSummary, ThePeakIsTakenInSequenceOrderNotFileOrder) {
  // Read in file order, the second allocation would come before the first one's free: 20 MiB.
  TraceBuilder b;
  const uint64_t first = b.alloc(AllocKind::device, 10 << 20);
  b.free(first);
  b.alloc(AllocKind::device, 10 << 20);
  test_support::TempDir dir("tidepool-summary");
  const auto path = save_in_order(b.trace(), {0, 2, 1}, dir.path() / "t.tpt");
  const TraceSummary s = summarize_trace(path);
  EXPECT_EQ(s.peak_requested_bytes, uint64_t{10} << 20);
  EXPECT_EQ(s.allocations, 2u);
  EXPECT_EQ(s.frees, 1u);
  EXPECT_EQ(s.leaked_bytes, uint64_t{10} << 20);
}

TEST(TraceSummary, AMissingFileIsAnErrorNamingIt) {
  try {
    summarize_trace("/nonexistent/x.tpt");
    FAIL() << "no error";
  } catch (const trace::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.tpt"), std::string::npos) << e.what();
  }
}

// The report of `trace`, or of its file read in order, as JSON; solver times zeroed (they vary).
std::string report_json(const trace::EventSource& source) {
  ProcessReport r = analyze(source, "t.tpt");
  r.plans = analyze_plans(source, {0.05, "pcie5"});
  for (SolverResult& solver : r.plans->solvers) solver.seconds = 0;
  return json_report(std::span(&r, 1));
}

TEST(ReportFromFile, IsTheReportOfTheTraceInMemory) {
  test_support::TempDir dir("tidepool-report-file");
  // A workload with NVTX ranges open at the peak, one with the runtime's decisions, and a
  // repeating one whose iteration the plans section finds.
  trace::Trace ranges = mixed_workload(5);
  for (size_t i = 0; i < ranges.events.size(); i += 97) {
    ranges.events[i].record = (i / 97) % 3 == 2 ? trace::Record(trace::RangePop{})
                                                : trace::Record(trace::RangePush{.name_id = 0});
  }
  TraceBuilder repeating;
  for (int step = 0; step < 12; ++step) {
    const uint64_t a = repeating.alloc(AllocKind::device, 1 << 20),
                   b = repeating.alloc(AllocKind::device, 2 << 20);
    repeating.launch("forward", {a, b});
    repeating.free(a);
    repeating.launch("backward", {b});
    repeating.free(b);
  }
  for (const trace::Trace& t : {ranges, testing::decisions_trace(), repeating.trace()}) {
    std::vector<size_t> reversed(t.events.size());
    for (size_t i = 0; i < reversed.size(); ++i) reversed[i] = reversed.size() - 1 - i;
    const auto path = save_in_order(t, reversed, dir.path() / "t.tpt");
    const trace::Trace read = trace::read_trace(path);
    EXPECT_EQ(report_json(trace::InOrderReader(path)), report_json(read));
  }
  // What the comparison covers.
  EXPECT_FALSE(analyze(ranges, "t").peak_nvtx_ranges.empty());
  EXPECT_TRUE(analyze(testing::decisions_trace(), "t").runtime.has_value());
  const IterationPlans plans = analyze_plans(repeating.trace(), {0.05, "pcie5"});
  EXPECT_TRUE(plans.no_iteration_reason.empty()) << plans.no_iteration_reason;
  EXPECT_FALSE(plans.swap.empty()) << plans.swap_error;
}

}  // namespace
}  // namespace tidepool::report
