// Reading a trace file, which read_trace does a chunk at a time: the same trace as parsing the
// file's bytes at once, whole or cut anywhere (chunks larger than one read included), and a filter
// that keeps only the events it accepts, seeing them in file order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/trace/reader.h"
#include "sample_records.h"
#include "tests/support/files.h"

namespace tidepool::trace {
namespace {

using testing::one_event_of_each_kind;
using testing::sample_header;
using testing::write_bytes;
using testing::write_file;

void expect_same(const Trace& read, const Trace& parsed, size_t cut) {
  EXPECT_EQ(read.events, parsed.events) << "cut at " << cut;
  EXPECT_EQ(read.strings, parsed.strings) << "cut at " << cut;
  EXPECT_EQ(read.stacks, parsed.stacks) << "cut at " << cut;
  EXPECT_EQ(read.modules.size(), parsed.modules.size()) << "cut at " << cut;
  EXPECT_EQ(read.truncated, parsed.truncated) << "cut at " << cut;
  EXPECT_EQ(read.bytes_read, parsed.bytes_read) << "cut at " << cut;
}

// Events enough for chunks of 200 KiB, over three times what the reader asks the file for at once,
// with strings and stacks between them.
std::vector<uint8_t> large_trace_bytes(std::vector<Event>& events) {
  const std::vector<Event> kinds = one_event_of_each_kind();
  for (uint64_t seq = 1; events.size() < 60000; ++seq) {
    Event e = kinds[seq % kinds.size()];
    e.seq = seq;
    events.push_back(e);
  }
  return write_bytes(sample_header(), 200 << 10, [&](Writer& w) {
    for (size_t i = 0; i < events.size(); ++i) {
      if (i % 10000 == 0) {
        w.append(String{static_cast<uint32_t>(i + 1), "kernel_" + std::to_string(i)});
        w.append(Stack{static_cast<uint32_t>(i + 1), {0x1000 + i, 0x2000 + i}});
      }
      w.append(events[i]);
    }
  });
}

TEST(TraceFileRead, ReadsAFileAsParsingItsBytes) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = large_trace_bytes(events);
  ASSERT_GT(bytes.size(), 3u * (200 << 10));
  test_support::TempDir dir("tidepool-trace-read");
  const Trace whole = read_trace(write_file(dir.path() / "whole.tpt", bytes));
  EXPECT_EQ(whole.events, events);
  expect_same(whole, parse_trace(bytes), bytes.size());
  // Cut inside the preamble, the header's chunk, a large chunk's payload, and near the end.
  for (const size_t cut : {size_t{10}, size_t{20}, size_t{70000}, size_t{300000}, bytes.size() / 2, bytes.size() - 1}) {
    const std::span<const uint8_t> prefix(bytes.data(), cut);
    const std::filesystem::path file = write_file(dir.path() / "cut.tpt", prefix);
    std::string parse_error;
    Trace parsed;
    try {
      parsed = parse_trace(prefix);
    } catch (const TraceError& e) {
      parse_error = e.what();
    }
    if (parse_error.empty()) {
      expect_same(read_trace(file), parsed, cut);
      continue;
    }
    try {
      read_trace(file);
      ADD_FAILURE() << "no error at cut " << cut;
    } catch (const TraceError& e) {
      EXPECT_EQ(e.what(), file.string() + ": " + parse_error);
    }
  }
}

TEST(TraceFileRead, AFilterKeepsTheEventsItAcceptsAndSeesThemInFileOrder) {
  std::vector<Event> events = one_event_of_each_kind();
  std::swap(events.front(), events.back());  // the file's order is not sequence order
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 64, [&](Writer& w) {
    for (const Event& e : events) w.append(e);
  });
  test_support::TempDir dir("tidepool-trace-filter");
  std::vector<uint64_t> seen;
  const Trace odd = read_trace(write_file(dir.path() / "t.tpt", bytes), [&](Event& e) {
    seen.push_back(e.seq);
    return e.seq % 2 == 1;
  });
  std::vector<uint64_t> file_order;
  std::vector<Event> expected;
  for (const Event& e : events) file_order.push_back(e.seq);
  for (const Event& e : one_event_of_each_kind()) {
    if (e.seq % 2 == 1) expected.push_back(e);
  }
  EXPECT_EQ(seen, file_order);
  EXPECT_EQ(odd.events, expected);  // kept, in sequence order
}

TEST(TraceFileRead, ASkipLeavesEventsOutBeforeTheyAreDecoded) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = large_trace_bytes(events);
  test_support::TempDir dir("tidepool-trace-skip");
  const std::filesystem::path file = write_file(dir.path() / "t.tpt", bytes);
  // Launches, and every event after the first 1,000 that is not an allocation.
  const auto skipped = [](RecordTag tag, uint64_t seq) {
    return tag == RecordTag::launch || (seq > 1000 && tag != RecordTag::alloc);
  };
  size_t filtered = 0;
  const Trace read = read_trace(file, [&](Event&) { return ++filtered, true; }, skipped);
  std::vector<Event> expected;
  for (const Event& e : events) {
    if (!skipped(tag_of(e.record), e.seq)) expected.push_back(e);
  }
  ASSERT_LT(expected.size(), events.size() / 4);
  EXPECT_EQ(read.events, expected);
  EXPECT_EQ(filtered, expected.size());  // the filter never sees a skipped event
  EXPECT_EQ(read.strings, read_trace(file).strings);
  EXPECT_EQ(read.bytes_read, bytes.size());
}

// A file appended to as a running program's is, the follower called after each write: cuts inside
// the preamble, a chunk's header, a chunk's payload (one larger than a read, too) and at chunk ends.
TEST(TraceFileRead, AFollowerReadsAGrowingFileOnceAndWholeChunksOnly) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = large_trace_bytes(events);
  test_support::TempDir dir("tidepool-trace-follow");
  const std::filesystem::path file = write_file(dir.path() / "t.tpt", std::span<const uint8_t>(bytes.data(), 0));
  std::vector<Event> seen;
  TraceFollower follower(file, [&](Event& e) {
    seen.push_back(e);
    return e.seq % 3 == 0;
  });
  follower.read_more();  // an empty file: nothing yet, and no error
  EXPECT_TRUE(seen.empty());
  size_t written = 0;
  for (const size_t cut : {size_t{10}, size_t{16}, size_t{20}, size_t{70000}, size_t{300000}, size_t{300001},
                           bytes.size() / 2, bytes.size() - 1, bytes.size()}) {
    write_file(file, std::span<const uint8_t>(bytes.data(), cut));
    follower.read_more();
    written = cut;
    // Only the events of whole chunks: at most those a whole read of the file as it is now gives
    // (which adds the whole records of a chunk cut off at its end).
    if (cut > 20) {
      EXPECT_LE(seen.size(), read_trace(file).events.size()) << "cut at " << cut;
    }
  }
  EXPECT_EQ(written, bytes.size());
  EXPECT_EQ(seen, events);  // each once, in file order
  std::vector<Event> kept;
  for (const Event& e : events) {
    if (e.seq % 3 == 0) kept.push_back(e);
  }
  EXPECT_EQ(follower.trace().events, kept);
  EXPECT_EQ(follower.trace().strings, read_trace(file).strings);
  EXPECT_EQ(follower.trace().stacks, read_trace(file).stacks);
  EXPECT_FALSE(follower.trace().truncated);
}

TEST(TraceFileRead, AFollowerNamesTheFileInItsErrors) {
  test_support::TempDir dir("tidepool-trace-follow");
  try {
    TraceFollower follower(dir.path() / "missing.tpt", {});
    ADD_FAILURE() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), (dir.path() / "missing.tpt").string() + ": cannot open: No such file or directory");
  }
  std::vector<Event> events;
  std::vector<uint8_t> bytes = large_trace_bytes(events);
  const std::filesystem::path file = write_file(dir.path() / "t.tpt", std::span<const uint8_t>(bytes.data(), 20));
  TraceFollower follower(file, {});
  follower.read_more();  // its header's chunk is not whole yet: nothing to read, no error
  bytes[300000] ^= 0xff;
  write_file(file, bytes);
  try {
    follower.read_more();
    ADD_FAILURE() << "no error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find(file.string() + ": corrupt chunk at offset "), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tidepool::trace
