// Cutting a trace where the runtime went back to recording, as the background planner reads it:
// from a file whose events are not in sequence order (each thread's events reach it in their own chunks).
#include "runtime/optimize/trace_window.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <variant>

#include "analyzer/trace/save.h"
#include "analyzer/trace/writer.h"
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

TEST(TraceWindow, AReaderGoesOnWhereItStoppedAsTheFileGrows) {
  // 400 events (allocations, frees, the cut at 200), in chunks of about 64 bytes, reaching the file
  // out of sequence order as two threads' chunks do; read after every 40, as planning attempts are.
  std::vector<trace::Event> events;
  for (uint64_t seq = 1; seq <= 400; ++seq) {
    if (seq == 200) {
      events.push_back({seq, 0, 0, trace::ReturnToRecording{}});
    } else if (seq % 3 == 0) {
      events.push_back(free_of(seq, seq / 2));
    } else {
      events.push_back(alloc(seq, seq));
    }
  }
  for (size_t i = 0; i + 10 <= events.size(); i += 20) std::swap(events[i], events[i + 10]);
  test_support::TempDir dir("tidepool-window");
  const std::filesystem::path path = dir.path() / "t.tpt";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  trace::Writer writer(fd, 64);
  ASSERT_EQ(writer.begin(trace::Header{}), trace::WriteStatus::ok);
  WindowReader reader(path, 200);
  for (size_t written = 0; written < events.size();) {
    for (const size_t end = written + 40; written < end; ++written) writer.append(events[written]);
    ASSERT_EQ(writer.flush(), trace::WriteStatus::ok);
    const TraceWindow again = reader.read();
    const TraceWindow once = read_window(path, 200);
    EXPECT_EQ(again.carried_allocations, once.carried_allocations) << written;
    EXPECT_EQ(again.trace.events, once.trace.events) << written;
  }
  EXPECT_TRUE(reader.reads(path, 200));
  EXPECT_FALSE(reader.reads(path, 201));
  ::close(fd);
}

}  // namespace
}  // namespace tidepool::runtime::optimize
