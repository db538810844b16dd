// Damaged traces give one clear line naming what is wrong and where.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/crc32.h"
#include "analyzer/trace/reader.h"
#include "analyzer/trace/varint.h"
#include "sample_records.h"

namespace tidepool::trace {
namespace {

using testing::one_event_of_each_kind;
using testing::sample_header;
using testing::write_bytes;

std::string error_of(std::span<const uint8_t> bytes) {
  try {
    parse_trace(bytes);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "no error";
}

struct TwoChunks {
  std::vector<uint8_t> bytes;
  size_t events_chunk = 0;  // offset of the chunk that holds the events
};

TwoChunks two_chunks() {
  TwoChunks t;
  t.bytes = write_bytes(sample_header(), 1 << 20, [&](Writer& w) {
    t.events_chunk = w.bytes_written();
    for (const Event& e : one_event_of_each_kind()) w.append(e);
  });
  return t;
}

void put_u32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

TEST(TraceCorruption, NotATrace) {
  EXPECT_EQ(error_of(std::vector<uint8_t>{}), "not a tidepool trace");
  const std::string elf = "\x7f" "ELF and more bytes than a preamble";
  EXPECT_EQ(error_of({reinterpret_cast<const uint8_t*>(elf.data()), elf.size()}),
            "not a tidepool trace");
}

TEST(TraceCorruption, UnsupportedVersion) {
  TwoChunks t = two_chunks();
  put_u32(t.bytes, 8, 99);
  EXPECT_EQ(error_of(t.bytes), "unsupported version 99 (this tidepool reads version 1)");
}

TEST(TraceCorruption, FlippedByteInAChunkNamesTheChunk) {
  TwoChunks t = two_chunks();
  for (size_t at = t.events_chunk + kChunkHeaderBytes; at < t.bytes.size(); at += 7) {
    std::vector<uint8_t> bad = t.bytes;
    bad[at] ^= 0x20;
    EXPECT_EQ(error_of(bad), "corrupt chunk at offset " + std::to_string(t.events_chunk));
  }
  std::vector<uint8_t> bad_crc = t.bytes;
  bad_crc[t.events_chunk + 4] ^= 1;
  EXPECT_EQ(error_of(bad_crc), "corrupt chunk at offset " + std::to_string(t.events_chunk));
}

TEST(TraceCorruption, ImpossibleChunkLength) {
  TwoChunks t = two_chunks();
  put_u32(t.bytes, t.events_chunk, 0xFFFFFFF0u);
  EXPECT_EQ(error_of(t.bytes), "corrupt chunk at offset " + std::to_string(t.events_chunk));
  put_u32(t.bytes, t.events_chunk, 0);
  EXPECT_EQ(error_of(t.bytes), "corrupt chunk at offset " + std::to_string(t.events_chunk));
}

// One record as raw bytes: tag, body length, body.
void put_raw_record(std::vector<uint8_t>& payload, uint64_t tag, const std::vector<uint8_t>& body) {
  varint::put(payload, tag);
  varint::put(payload, body.size());
  payload.insert(payload.end(), body.begin(), body.end());
}

// The trace's header chunk followed by one chunk (with a right CRC) holding payload.
std::vector<uint8_t> header_then_chunk(const TwoChunks& t, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> bytes(t.bytes.begin(), t.bytes.begin() + t.events_chunk);
  std::vector<uint8_t> head(kChunkHeaderBytes);
  put_u32(head, 0, static_cast<uint32_t>(payload.size()));
  put_u32(head, 4, crc32(payload));
  bytes.insert(bytes.end(), head.begin(), head.end());
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  return bytes;
}

// A chunk with a right CRC around records that do not decode: the record's offset is named.
TEST(TraceCorruption, UndecodableRecordInsideAGoodChunk) {
  const TwoChunks t = two_chunks();
  std::vector<uint8_t> payload;
  put_raw_record(payload, static_cast<uint64_t>(RecordTag::alloc), {1, 2});  // no thread field
  EXPECT_EQ(error_of(header_then_chunk(t, payload)),
            "corrupt record at offset " + std::to_string(t.events_chunk + kChunkHeaderBytes));
}

// Records of a newer writer are skipped; fields it appended are ignored; fields an older writer
// did not know take their defaults.
TEST(TraceCompatibility, UnknownRecordsAndFieldsAreSkipped) {
  const TwoChunks t = two_chunks();
  std::vector<uint8_t> payload;
  put_raw_record(payload, 999, {1, 2, 3});
  // seq 5, t 6, tid 7, alloc 8, kind 1, stream 2, captured 1, then three fields of a newer writer.
  put_raw_record(payload, static_cast<uint64_t>(RecordTag::free), {5, 6, 7, 8, 1, 2, 1, 40, 41, 42});
  // seq 9, t 0, tid 0, alloc 3, and nothing more.
  put_raw_record(payload, static_cast<uint64_t>(RecordTag::free), {9, 0, 0, 3});
  const Trace trace = parse_trace(header_then_chunk(t, payload));
  ASSERT_EQ(trace.events.size(), 2u);
  EXPECT_EQ(trace.events[0].seq, 5u);
  EXPECT_EQ(std::get<Free>(trace.events[0].record),
            (Free{.alloc_id = 8, .kind = AllocKind::device_pitched, .stream = 2, .captured = true}));
  EXPECT_EQ(std::get<Free>(trace.events[1].record), (Free{.alloc_id = 3}));
}

}  // namespace
}  // namespace tidepool::trace
