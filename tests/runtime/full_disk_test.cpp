// A full disk ends the trace, never the program: one line says why, and the trace reads up to its
// last whole record; a disk too full for the trace's first chunk leaves no trace file at all. The
// disk is a small tmpfs of the test's own, so the test is skipped where it may not mount one.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "analyzer/trace/reader.h"
#include "tests/runtime/exit_recording_run.h"
#include "tests/support/files.h"

namespace tidepool::runtime {
namespace {

namespace fs = std::filesystem;

// A tmpfs of `size` mounted on `where` for the object's life.
class SmallDisk {
 public:
  SmallDisk(const fs::path& where, const char* size) : where_(where) {
    fs::create_directories(where);
    const std::string options = std::string("size=") + size;
    if (mount("tmpfs", where.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) == 0)
      mounted_ = true;
    else
      error_ = std::strerror(errno);
  }
  ~SmallDisk() {
    if (mounted_) umount2(where_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  fs::path where_;
  bool mounted_ = false;
  std::string error_;
};

int lines_with(const std::string& text, const std::string& part) {
  int count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

TEST(FullDisk, EndsTheTraceWithOneLineAndTheProgramRunsOn) {
  test_support::TempDir dir("tidepool-full-disk");
  const SmallDisk disk(dir.path() / "disk", "16k");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << disk.error();
  const test_support::ProcessOutput run =
      run_exit_recording_program(dir.path() / "disk", dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(lines_with(run.err, "tidepool: "), 1) << run.err;
  EXPECT_EQ(
      lines_with(run.err, ": No space left on device; the trace ends here, the program runs on\n"),
      1)
      << run.err;
  const fs::path trace_path = trace_in(dir.path() / "disk");
  ASSERT_FALSE(trace_path.empty());
  const trace::Trace t = trace::read_trace(trace_path);
  EXPECT_FALSE(t.events.empty()) << "what was written before the disk filled is read";
}

TEST(FullDisk, TooFullForTheFirstChunkLeavesNoTraceFile) {
  test_support::TempDir dir("tidepool-full-disk");
  const SmallDisk disk(dir.path() / "disk", "4k");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << disk.error();
  std::ofstream(dir.path() / "disk" / "filler") << std::string(4096, 'x');
  const test_support::ProcessOutput run =
      run_exit_recording_program(dir.path() / "disk", dir.path());
  EXPECT_EQ(run.exit_code, 2) << "the program's own answer when it finds no recorder: " << run.err;
  EXPECT_EQ(lines_with(run.err, "tidepool: "), 1) << run.err;
  EXPECT_EQ(lines_with(run.err, ": No space left on device; not tracing this process\n"), 1)
      << run.err;
  EXPECT_EQ(trace_in(dir.path() / "disk"), fs::path()) << "no trace file";
}

}  // namespace
}  // namespace tidepool::runtime
