// event_stream(): which trace records become events, and how; the same from a file read in order.
#include "analyzer/iteration/from_trace.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analyzer/trace/save.h"
#include "tests/support/files.h"

namespace tidepool::iteration {
namespace {

template <class R>
void add(trace::Trace& t, R record) {
  t.events.push_back({t.events.size() + 1, 0, 0, trace::Record{std::move(record)}});
}

trace::Trace sample_trace() {
  trace::Trace t;
  t.strings = {{1, "gemm"}, {2, "step"}};
  add(t, trace::Alloc{.alloc_id = 1, .kind = trace::AllocKind::device, .address = 0x1000, .size = 512, .context = 7});
  add(t, trace::Alloc{.alloc_id = 2, .kind = trace::AllocKind::host_pinned, .size = 64});  // not device memory
  add(t, trace::Alloc{.alloc_id = 3, .kind = trace::AllocKind::stream_ordered, .size = 256, .context = 7});
  add(t, trace::RangePush{.name_id = 2});
  add(t, trace::Launch{.op_id = 1, .kernel_name_id = 1});
  add(t, trace::Launch{.op_id = 2, .kernel_name_id = 1, .captured = true});  // into a graph: not run
  add(t, trace::Copy{.op_id = 3, .kind = trace::CopyKind::host_to_device, .bytes = 512});
  add(t, trace::Set{.op_id = 4, .bytes = 256});
  add(t, trace::Free{.alloc_id = 1});
  add(t, trace::Free{.alloc_id = 2, .kind = trace::AllocKind::host_pinned});
  add(t, trace::ContextDestroy{.context = 7});  // frees allocation 3
  return t;
}

TEST(FromTrace, ConvertsMemoryWorkAndMarks) {
  const trace::Trace t = sample_trace();

  const EventStream s = event_stream(t);
  ASSERT_EQ(s.events.size(), 7u);
  EXPECT_EQ(s.events[0].kind, EventKind::alloc);
  EXPECT_EQ(s.events[0].allocation, 1u);
  EXPECT_EQ(s.events[0].bytes, 512u);
  EXPECT_EQ(s.events[1].kind, EventKind::alloc);
  EXPECT_EQ(s.events[1].allocation, 3u);
  EXPECT_EQ(s.events[2].kind, EventKind::launch);
  EXPECT_EQ(s.names[s.events[2].name], "gemm");
  EXPECT_EQ(s.events[3].kind, EventKind::transfer);
  EXPECT_EQ(s.events[3].bytes, 512u);
  EXPECT_EQ(s.events[4].kind, EventKind::transfer);
  EXPECT_EQ(s.names[s.events[4].name], "memset");
  EXPECT_EQ(s.events[5].kind, EventKind::free);
  EXPECT_EQ(s.events[5].allocation, 1u);
  EXPECT_EQ(s.events[5].bytes, 512u);
  EXPECT_EQ(s.events[6].kind, EventKind::free);
  EXPECT_EQ(s.events[6].allocation, 3u);
  EXPECT_EQ(s.events[0].source, 0u);
  EXPECT_EQ(s.events[2].source, 4u);
  EXPECT_EQ(s.events[6].source, 10u);  // the context's destruction
  ASSERT_EQ(s.marks.size(), 1u);
  EXPECT_EQ(s.marks[0].position, 2u);
  EXPECT_EQ(s.names[s.marks[0].name], "step");
}

// The stream of a file read in order is the stream of the trace read whole, sources included,
// though the file holds the events out of order and skipped records between them.
TEST(FromTrace, AFileReadInOrderGivesTheSameStream) {
  trace::Trace t = sample_trace();
  add(t, trace::StreamSynchronize{.stream = 1});
  add(t, trace::Alloc{.alloc_id = 4, .kind = trace::AllocKind::pool, .size = 1024});
  add(t, trace::GraphLaunch{.op_id = 5});
  add(t, trace::RangePush{.name_id = 2});
  add(t, trace::Free{.alloc_id = 4});
  const EventStream whole = event_stream(t);
  std::reverse(t.events.begin(), t.events.end());
  test_support::TempDir dir("tidepool-stream-in-order");
  trace::save_trace(t, dir.path() / "t.tpt");
  const EventStream read = event_stream(trace::InOrderReader(dir.path() / "t.tpt"));

  ASSERT_EQ(read.events.size(), whole.events.size());
  for (std::size_t i = 0; i < whole.events.size(); ++i) {
    EXPECT_EQ(read.events[i].kind, whole.events[i].kind) << i;
    EXPECT_EQ(read.events[i].allocation, whole.events[i].allocation) << i;
    EXPECT_EQ(read.events[i].bytes, whole.events[i].bytes) << i;
    EXPECT_EQ(read.names[read.events[i].name], whole.names[whole.events[i].name]) << i;
    EXPECT_EQ(read.events[i].source, whole.events[i].source) << i;
  }
  ASSERT_EQ(read.marks.size(), 2u);
  for (std::size_t i = 0; i < read.marks.size(); ++i) {
    EXPECT_EQ(read.marks[i].position, whole.marks[i].position);
    EXPECT_EQ(read.names[read.marks[i].name], whole.names[whole.marks[i].name]);
  }
}

}  // namespace
}  // namespace tidepool::iteration
