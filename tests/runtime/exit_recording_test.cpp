// Recording keeps working, and loses nothing, where a process ends: from a thread that exited and
// from an exit handler that runs after the main thread's thread-local objects were destroyed.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analyzer/trace/reader.h"
#include "tests/runtime/exit_recording_run.h"
#include "tests/support/files.h"

namespace tidepool::runtime {
namespace {

TEST(ExitRecording, RecordsFromExitHandlersAfterThreadLocalsAreGone) {
  test_support::TempDir dir("tidepool-exit-recording");
  const test_support::ProcessOutput run = run_exit_recording_program(dir.path(), dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::filesystem::path trace_path = trace_in(dir.path());
  ASSERT_FALSE(trace_path.empty());
  const trace::Trace t = trace::read_trace(trace_path);
  std::map<std::string, int> marks;
  for (const trace::Event& e : t.events)
    if (const auto* m = std::get_if<trace::Mark>(&e.record)) ++marks[std::string(t.string(m->name_id))];
  EXPECT_EQ(marks["main"], 1);
  EXPECT_EQ(marks["thread"], 1);
  int at_exit = 0;
  for (const auto& [name, count] : marks)
    if (name.starts_with("at exit ")) at_exit += count;
  EXPECT_EQ(at_exit, 2000);
}

}  // namespace
}  // namespace tidepool::runtime
