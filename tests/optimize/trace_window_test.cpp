// Cutting a trace where the runtime went back to recording, as the background planner reads it:
// from a file whose events are not in sequence order (each thread's events reach it in their own chunks).
#include "runtime/optimize/trace_window.h"

#include <gtest/gtest.h>

#include <variant>

#include "analyzer/trace/save.h"
#include "tests/support/files.h"

namespace tidepool::runtime::optimize {
namespace {

trace::Event alloc(uint64_t seq, uint64_t id, uint64_t context = 0) {
  trace::Alloc a;
  a.alloc_id = id;
  a.size = 256 * id;
  a.context = context;
  return {seq, 0, 0, a};
}
trace::Event free_of(uint64_t seq, uint64_t id) {
  return {seq, 0, 0, trace::Free{id, trace::AllocKind::device, 0}};
}
uint64_t alloc_id(const trace::Event& e) { return std::get<trace::Alloc>(e.record).alloc_id; }

// The window of `events` (written to a file in that order) after `cut`.
TraceWindow window_of(std::vector<trace::Event> events, uint64_t cut) {
  test_support::TempDir dir("tidepool-window");
  trace::Trace t;
  t.events = std::move(events);
  trace::save_trace(t, dir.path() / "t.tpt");
  return read_window(dir.path() / "t.tpt", cut);
}

TEST(TraceWindow, KeepsWhatFollowsTheCutAndWhatLivesAcrossIt) {
  const std::vector<trace::Event> events = {alloc(1, 1),
                                            alloc(2, 2),
                                            free_of(3, 1),
                                            alloc(4, 3),
                                            trace::Event{5, 0, 0, trace::ReturnToRecording{}},
                                            alloc(6, 4),
                                            free_of(7, 2)};
  const TraceWindow w = window_of(events, 5);
  EXPECT_EQ(w.carried_allocations, 2u);
  ASSERT_EQ(w.trace.events.size(), 4u);
  EXPECT_EQ(alloc_id(w.trace.events[0]), 2u);  // allocation order
  EXPECT_EQ(alloc_id(w.trace.events[1]), 3u);
  EXPECT_EQ(alloc_id(w.trace.events[2]), 4u);
  EXPECT_TRUE(std::holds_alternative<trace::Free>(w.trace.events[3].record));

  const TraceWindow whole = window_of(events, 0);
  EXPECT_EQ(whole.carried_allocations, 0u);
  EXPECT_EQ(whole.trace.events, events);
}

TEST(TraceWindow, EventsBeforeTheCutMayComeInAnyOrder) {
  // A Free before its Alloc in the file, an allocation in a context destroyed after it was made
  // (gone), one made in a context after it was destroyed (live), and events after the cut first.
  const std::vector<trace::Event> events = {alloc(20, 9),
                                            free_of(4, 1),
                                            alloc(5, 3, 7),
                                            trace::Event{6, 0, 0, trace::ContextDestroy{7, 0, false}},
                                            alloc(7, 4, 7),
                                            alloc(1, 1),
                                            alloc(2, 2),
                                            trace::Event{10, 0, 0, trace::ReturnToRecording{}}};
  const TraceWindow w = window_of(events, 10);
  EXPECT_EQ(w.carried_allocations, 2u);
  ASSERT_EQ(w.trace.events.size(), 3u);
  EXPECT_EQ(alloc_id(w.trace.events[0]), 2u);
  EXPECT_EQ(alloc_id(w.trace.events[1]), 4u);
  EXPECT_EQ(alloc_id(w.trace.events[2]), 9u);
}

}  // namespace
}  // namespace tidepool::runtime::optimize
