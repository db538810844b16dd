// Writer -> reader round trips of every record kind, through Writer::append and through
// encode() + Writer::append_encoded; encode_into() writes the same bytes within its bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/reader.h"
#include "sample_records.h"

namespace tidepool::trace {
namespace {

using testing::one_event_of_each_kind;
using testing::sample_header;
using testing::write_bytes;
using testing::write_file;

TEST(TraceRoundTrip, EveryRecordKind) {
  const Header header = sample_header();
  const std::vector<Event> events = one_event_of_each_kind();
  ASSERT_EQ(events.size(), std::variant_size_v<Record>);
  const Module module{.path = "/usr/lib/libfoo.so", .base = 0x7f0000000000, .size = 123456,
                      .build_id = "0badc0de"};
  const std::vector<uint8_t> bytes = write_bytes(header, kDefaultChunkBytes, [&](Writer& w) {
    EXPECT_EQ(w.append(module), WriteStatus::ok);
    EXPECT_EQ(w.append(Stack{7, {0x401000, 0x7f0000001234, 0}}), WriteStatus::ok);
    EXPECT_EQ(w.append(String{9, "gemm_kernel<float>"}), WriteStatus::ok);
    for (const Event& e : events) EXPECT_EQ(w.append(e), WriteStatus::ok);
  });
  const Trace trace = parse_trace(bytes);
  EXPECT_EQ(trace.format_version, kFormatVersion);
  EXPECT_EQ(trace.header, header);
  ASSERT_EQ(trace.modules.size(), 1u);
  EXPECT_EQ(trace.modules[0], module);
  EXPECT_EQ(std::vector<uint64_t>(trace.stack(7).begin(), trace.stack(7).end()),
            (std::vector<uint64_t>{0x401000, 0x7f0000001234, 0}));
  EXPECT_TRUE(trace.stack(8).empty());
  EXPECT_EQ(trace.string(9), "gemm_kernel<float>");
  EXPECT_EQ(trace.string(0), "");
  EXPECT_EQ(trace.events, events);
  EXPECT_FALSE(trace.truncated);
  EXPECT_EQ(trace.bytes_read, bytes.size());
}

TEST(TraceRoundTrip, EncodedRecordsAndManySmallChunks) {
  const std::vector<Event> events = one_event_of_each_kind();
  std::vector<uint8_t> buffer;
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 64, [&](Writer& w) {
    for (const Event& e : events) {
      buffer.clear();
      encode(buffer, e);
      EXPECT_EQ(w.append_encoded(buffer), WriteStatus::ok);
    }
  });
  EXPECT_EQ(parse_trace(bytes).events, events);
}

// The recorder's path: records written straight into room of encoded_size_bound() bytes, among
// them ones whose length takes two or three varint bytes (the body is moved up after the walk).
TEST(TraceRoundTrip, EncodeIntoWritesWhatEncodeAppendsWithinItsBound) {
  const auto same_bytes = [](const auto& record) {
    std::vector<uint8_t> appended;
    encode(appended, record);
    std::vector<uint8_t> room(encoded_size_bound(record), 0xcc);
    const size_t written = encode_into(room, record);
    EXPECT_LE(written, room.size());
    room.resize(written);
    EXPECT_EQ(room, appended);
  };
  for (const Event& e : one_event_of_each_kind()) same_bytes(e);
  same_bytes(String{3, std::string(100, 'k')});   // length 102: one byte
  same_bytes(String{4, std::string(300, 'k')});   // two bytes
  same_bytes(String{5, std::string(20000, 'k')});  // three bytes
  same_bytes(Stack{6, std::vector<uint64_t>(40, 0x7f0000001234)});
  Event launch;
  launch.record = Launch{.op_id = 1, .accesses = std::vector<Access>(30, Access{.alloc_id = 1ull << 40})};
  same_bytes(launch);
}

TEST(TraceRoundTrip, EventsComeBackInSequenceOrder) {
  std::vector<Event> events = one_event_of_each_kind();
  std::vector<Event> shuffled = events;
  std::reverse(shuffled.begin(), shuffled.end());
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 128, [&](Writer& w) {
    for (const Event& e : shuffled) w.append(e);
  });
  EXPECT_EQ(parse_trace(bytes).events, events);
}

TEST(TraceRoundTrip, ExtremeValues) {
  Event e;
  e.seq = ~0ull;
  e.time_ns = ~0ull;
  e.thread = ~0u;
  e.record = Alloc{.alloc_id = ~0ull, .kind = AllocKind::imported, .address = ~0ull,
                   .size = 0, .device = INT32_MIN, .stack_id = ~0u};
  Event f;
  f.seq = 0;
  f.record = StreamCreate{.stream = 0, .flags = 0, .priority = INT32_MAX};
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 4096, [&](Writer& w) {
    w.append(e);
    w.append(f);
  });
  EXPECT_EQ(parse_trace(bytes).events, (std::vector<Event>{f, e}));
}

TEST(TraceRoundTrip, ReadsFilesAndNamesThemInErrors) {
  const auto dir = std::filesystem::temp_directory_path();
  const auto path = dir / ("tidepool_trace_test_" + std::to_string(::getpid()) + ".trace");
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 4096, [](Writer&) {});
  write_file(path, std::span(bytes.data(), 2));
  try {
    read_trace(path);
    FAIL() << "a two-byte file was read";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": truncated before its header");
  }
  EXPECT_EQ(read_trace(write_file(path, bytes)).header, sample_header());
  std::filesystem::remove(path);
  try {
    read_trace(path);
    FAIL() << "a missing file was read";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": cannot open: No such file or directory");
  }
}

TEST(TraceWriter, RefusesRecordsBeforeTheHeaderAndReportsIoErrors) {
  Writer unbegun(-1);
  EXPECT_EQ(unbegun.append(String{1, "x"}), WriteStatus::not_begun);
  EXPECT_EQ(unbegun.flush(), WriteStatus::not_begun);
  Writer bad_fd(-1);
  EXPECT_EQ(bad_fd.begin(sample_header()), WriteStatus::io_error);
  EXPECT_EQ(bad_fd.append(String{1, "x"}), WriteStatus::not_begun);
}

}  // namespace
}  // namespace tidepool::trace
