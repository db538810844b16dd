// Cutting a trace where the runtime went back to recording.
#include "runtime/optimize/trace_window.h"

#include <gtest/gtest.h>

#include <variant>

namespace tidepool::runtime::optimize {
namespace {

trace::Event alloc(uint64_t seq, uint64_t id) {
  trace::Alloc a;
  a.alloc_id = id;
  a.size = 256 * id;
  return {seq, 0, 0, a};
}
trace::Event free_of(uint64_t seq, uint64_t id) {
  return {seq, 0, 0, trace::Free{id, trace::AllocKind::device, 0}};
}

TEST(TraceWindow, KeepsWhatFollowsTheCutAndWhatLivesAcrossIt) {
  trace::Trace t;
  t.events = {alloc(1, 1),
              alloc(2, 2),
              free_of(3, 1),
              alloc(4, 3),
              trace::Event{5, 0, 0, trace::ReturnToRecording{}},
              alloc(6, 4),
              free_of(7, 2)};
  const TraceWindow w = trace_since(t, 5);
  EXPECT_EQ(w.carried_allocations, 2u);
  ASSERT_EQ(w.trace.events.size(), 4u);
  EXPECT_EQ(std::get<trace::Alloc>(w.trace.events[0].record).alloc_id, 2u);  // allocation order
  EXPECT_EQ(std::get<trace::Alloc>(w.trace.events[1].record).alloc_id, 3u);
  EXPECT_EQ(std::get<trace::Alloc>(w.trace.events[2].record).alloc_id, 4u);
  EXPECT_TRUE(std::holds_alternative<trace::Free>(w.trace.events[3].record));

  const TraceWindow whole = trace_since(t, 0);
  EXPECT_EQ(whole.carried_allocations, 0u);
  EXPECT_EQ(whole.trace.events.size(), t.events.size());
}

}  // namespace
}  // namespace tidepool::runtime::optimize
