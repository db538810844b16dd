// Records written before a field was appended (an older writer) still decode: the missing
// trailing field takes its default, every other field keeps its value. data/ holds a whole trace
// written before Alloc and Free had their `captured` flag.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/reader.h"
#include "analyzer/trace/varint.h"

namespace tidepool::trace {
namespace {

// The bytes an older writer would have produced for `event`: its body without the last
// `dropped_bytes` bytes (the fields it did not know yet).
std::vector<uint8_t> without_trailing_bytes(const Event& event, size_t dropped_bytes) {
  std::vector<uint8_t> full;
  encode(full, event);
  size_t pos = 0;
  uint64_t tag = 0, length = 0;
  EXPECT_TRUE(varint::get(full, pos, tag));
  EXPECT_TRUE(varint::get(full, pos, length));
  EXPECT_EQ(pos + length, full.size());
  std::vector<uint8_t> old;
  varint::put(old, tag);
  varint::put(old, length - dropped_bytes);
  old.insert(old.end(), full.begin() + static_cast<std::ptrdiff_t>(pos), full.end() - static_cast<std::ptrdiff_t>(dropped_bytes));
  return old;
}

template <class R>
R decode_only(const std::vector<uint8_t>& bytes) {
  size_t pos = 0;
  DecodedRecord out;
  EXPECT_EQ(decode_record(bytes, pos, out), DecodeStatus::ok);
  EXPECT_EQ(pos, bytes.size());
  const auto* event = std::get_if<Event>(&out);
  if (event == nullptr || !std::holds_alternative<R>(event->record)) {
    ADD_FAILURE() << "not the record that was encoded";
    return {};
  }
  return std::get<R>(event->record);
}

TEST(TraceCompatibility, AllocWithoutCapturedFlagReadsAsNotCaptured) {
  Alloc a{.alloc_id = 7, .kind = AllocKind::stream_ordered, .address = 0x7f0000001000, .size = 4096,
          .stream = 3, .pool = 9, .handle = 0, .device = 1, .context = 0x55, .stack_id = 12, .captured = true};
  const Alloc old = decode_only<Alloc>(without_trailing_bytes(Event{1, 2, 3, a}, 1));  // a bool: one byte
  Alloc expected = a;
  expected.captured = false;
  EXPECT_EQ(old, expected);
}

TEST(TraceCompatibility, FreeWithoutCapturedFlagReadsAsNotCaptured) {
  const Free f{.alloc_id = 7, .kind = AllocKind::stream_ordered, .stream = 3, .captured = true};
  const Free old = decode_only<Free>(without_trailing_bytes(Event{1, 2, 3, f}, 1));
  EXPECT_EQ(old, (Free{7, AllocKind::stream_ordered, 3, false}));
}

TEST(TraceCompatibility, CapturedFlagsRoundTrip) {
  const Free f{.alloc_id = 7, .kind = AllocKind::pool, .stream = 3, .captured = true};
  EXPECT_EQ(decode_only<Free>(without_trailing_bytes(Event{1, 2, 3, f}, 0)), f);
}

TEST(TraceCompatibility, TraceWrittenBeforeTheCapturedFlagsReads) {
  const Trace t = read_trace(std::filesystem::path(TIDEPOOL_SOURCE_DIR) / "tests/trace/data/before-captured-flags.trace");
  EXPECT_FALSE(t.truncated);
  size_t allocs = 0, frees = 0;
  for (const Event& e : t.events) {
    if (const auto* a = std::get_if<Alloc>(&e.record)) {
      ++allocs;
      EXPECT_FALSE(a->captured);
      EXPECT_NE(a->size, 0u);
    } else if (const auto* f = std::get_if<Free>(&e.record)) {
      ++frees;
      EXPECT_FALSE(f->captured);
    }
  }
  EXPECT_EQ(allocs + frees, 18u);
  EXPECT_EQ(std::get<Alloc>(t.events[3].record),
            (Alloc{.alloc_id = 1, .kind = AllocKind::device, .address = 0x7f0000000000, .size = 8388608, .device = 0,
                   .context = 1, .stack_id = 1}));
}

}  // namespace
}  // namespace tidepool::trace
