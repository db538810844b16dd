// Stream capture under libtidepool.so on simcuda: work on a capturing stream, and on a stream that
// joined the capture through an event, is recorded as captured and never timed with our events;
// the capture ends for every stream in it; an invalidated capture ends too; capture-mode exchanges
// are recorded; allocations and frees that become graph memory nodes are recorded as captured and
// ignored by the report and the iteration event stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "analyzer/iteration/from_trace.h"
#include "analyzer/report/analyze.h"
#include "analyzer/trace/format.h"
#include "traced_run.h"

namespace tidepool::testing {
namespace {

std::vector<bool> captured_flags(const std::vector<trace::Launch>& launches) {
  std::vector<bool> out;
  for (const trace::Launch& l : launches) out.push_back(l.captured);
  return out;
}

TEST(Capture, WorkOnCapturingAndJoinedStreamsIsCapturedAndUntimed) {
  const TracedRun run = run_traced({{TIDEPOOL_PROBE, "capture"}});
  ASSERT_EQ(run.exit_status, 0);
  const trace::Trace t = only_trace(run);
  const auto launches = records_of<trace::Launch>(t);
  // Before, in the capture on its stream, on the joined stream, after on the joined stream, and
  // after the invalidated capture.
  ASSERT_EQ(launches.size(), 5u);
  EXPECT_EQ(captured_flags(launches), (std::vector<bool>{false, true, true, false, false}));

  std::set<uint64_t> timed;
  for (const auto& d : records_of<trace::DeviceTiming>(t)) timed.insert(d.op_id);
  EXPECT_TRUE(timed.contains(launches[0].op_id));
  EXPECT_FALSE(timed.contains(launches[1].op_id));
  EXPECT_FALSE(timed.contains(launches[2].op_id));

  const auto waits = records_of<trace::StreamWaitEvent>(t);
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_TRUE(waits[0].captured);  // the wait that joins the capture is part of it
  EXPECT_TRUE(waits[1].captured);

  EXPECT_EQ(records_of<trace::CaptureBegin>(t).size(), 2u);
  const auto ends = records_of<trace::CaptureEnd>(t);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_NE(ends[0].graph, 0u);
  EXPECT_EQ(ends[1].graph, 0u);  // invalidated

  const auto modes = records_of<trace::CaptureMode>(t);
  ASSERT_EQ(modes.size(), 2u);
  EXPECT_EQ(modes[0].mode, 2u);  // relaxed
  EXPECT_EQ(modes[0].previous, 0u);  // global, the default
  EXPECT_EQ(modes[1].mode, 0u);
  EXPECT_EQ(modes[1].previous, 2u);

  // The refused allocation is not recorded: one allocation, freed.
  const auto allocs = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs.size(), 1u);
  EXPECT_FALSE(allocs[0].captured);
}

TEST(Capture, GraphMemoryNodesAreRecordedAsCapturedAndIgnoredByTheReport) {
  RunSpec spec{{TIDEPOOL_PROBE, "capture", "graph-memory"}};
  spec.preload = std::string(TIDEPOOL_PRELOAD) + " " + TIDEPOOL_GRAPH_MEMORY_INTERPOSER;
  const TracedRun run = run_traced(spec);
  ASSERT_EQ(run.exit_status, 0);
  const trace::Trace t = only_trace(run);
  const auto allocs = records_of<trace::Alloc>(t);
  ASSERT_EQ(allocs.size(), 2u);
  EXPECT_FALSE(allocs[0].captured);
  EXPECT_EQ(allocs[1].size, 8192u);
  EXPECT_EQ(allocs[1].kind, trace::AllocKind::stream_ordered);
  EXPECT_TRUE(allocs[1].captured);
  const auto frees = records_of<trace::Free>(t);
  ASSERT_EQ(frees.size(), 2u);
  EXPECT_EQ(frees[0].alloc_id, allocs[1].alloc_id);
  EXPECT_TRUE(frees[0].captured);
  EXPECT_EQ(frees[1].alloc_id, allocs[0].alloc_id);
  EXPECT_FALSE(frees[1].captured);

  const report::ProcessReport r = report::analyze(t, "capture");
  EXPECT_EQ(r.allocations, 1u);
  EXPECT_EQ(r.frees, 1u);
  EXPECT_EQ(r.peak_requested_bytes, 4096u);
  EXPECT_EQ(r.leaked_bytes, 0u);

  const iteration::EventStream stream = iteration::event_stream(t);
  const auto allocations = std::count_if(stream.events.begin(), stream.events.end(),
                                         [](const iteration::Event& e) { return e.kind == iteration::EventKind::alloc; });
  const auto frees_seen = std::count_if(stream.events.begin(), stream.events.end(),
                                        [](const iteration::Event& e) { return e.kind == iteration::EventKind::free; });
  EXPECT_EQ(allocations, 1);
  EXPECT_EQ(frees_seen, 1);
}

}  // namespace
}  // namespace tidepool::testing
