// event_stream(): which trace records become events, and how.
#include "analyzer/iteration/from_trace.h"

#include <gtest/gtest.h>

namespace tidepool::iteration {
namespace {

template <class R>
void add(trace::Trace& t, R record) {
  t.events.push_back({t.events.size() + 1, 0, 0, trace::Record{std::move(record)}});
}

TEST(FromTrace, ConvertsMemoryWorkAndMarks) {
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

}  // namespace
}  // namespace tidepool::iteration
