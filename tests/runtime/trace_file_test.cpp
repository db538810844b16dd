// Trace file names, headers, and the refusal to overwrite.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "runtime/trace_file.h"

namespace tidepool::runtime {
namespace {

TEST(TraceFile, NameCarriesProgramHostPidAndRank) {
  trace::Header h;
  h.program = "train";
  h.host = "node1";
  h.pid = 42;
  EXPECT_EQ(trace_file_name(h), "train.node1.42.tpt");
  h.rank = 3;
  EXPECT_EQ(trace_file_name(h), "train.node1.42.3.tpt");
  h.program = "a b/c";
  EXPECT_EQ(trace_file_name(h), "a_b_c.node1.42.3.tpt");
}

TEST(TraceFile, HeaderDescribesThisProcess) {
  Settings s;
  s.rank = "7";
  const trace::Header h = make_header(s, 13000);
  EXPECT_EQ(h.pid, static_cast<uint32_t>(getpid()));
  EXPECT_EQ(h.parent_pid, static_cast<uint32_t>(getppid()));
  EXPECT_EQ(h.rank, 7);
  EXPECT_EQ(h.driver_version, 13000);
  ASSERT_FALSE(h.command_line.empty());
  EXPECT_EQ(h.program, "runtime_test");
  EXPECT_GT(h.start_time_unix_ns, 0u);
  s.rank = "x";
  EXPECT_EQ(make_header(s, 0).rank, -1);
}

TEST(TraceFile, ExistingFilesAreKeptUnlessOverwriteIsAsked) {
  std::string dir = (std::filesystem::temp_directory_path() / "tidepool-trace-file-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  std::ofstream(dir + "/t.tpt") << "old";
  EXPECT_EQ(open_trace_file(dir + "/t.tpt", false), -1);
  const int fd = open_trace_file(dir + "/t.tpt", true);
  EXPECT_GE(fd, 0);
  close(fd);
  EXPECT_EQ(std::filesystem::file_size(dir + "/t.tpt"), 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace tidepool::runtime
