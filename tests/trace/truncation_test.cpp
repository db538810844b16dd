// A trace cut at every byte reads exactly the records that are whole before the cut.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/reader.h"
#include "sample_records.h"

namespace tidepool::trace {
namespace {

using testing::one_event_of_each_kind;
using testing::sample_header;
using testing::write_bytes;

// For every cut of bytes: before the header is whole, an error; after, the events whose records
// end at or before the cut (record_ends[i] is where event i's record ends), flagged truncated
// unless the cut falls between two chunks (chunk_ends: where each chunk ends, the header's first).
void expect_every_cut_reads_whole_records(const std::vector<uint8_t>& bytes,
                                          const std::vector<Event>& events,
                                          const std::vector<size_t>& record_ends,
                                          const std::vector<size_t>& chunk_ends) {
  const size_t header_end = chunk_ends.front();
  for (size_t cut = 0; cut <= bytes.size(); ++cut) {
    const std::span<const uint8_t> prefix(bytes.data(), cut);
    if (cut < header_end) {
      EXPECT_THROW(parse_trace(prefix), TraceError) << "cut at " << cut;
      continue;
    }
    Trace trace;
    ASSERT_NO_THROW(trace = parse_trace(prefix)) << "cut at " << cut;
    size_t whole = 0;
    while (whole < record_ends.size() && record_ends[whole] <= cut) ++whole;
    const std::vector<Event> expected(events.begin(), events.begin() + whole);
    EXPECT_EQ(trace.events, expected) << "cut at " << cut;
    const bool between_chunks =
        std::find(chunk_ends.begin(), chunk_ends.end(), cut) != chunk_ends.end();
    EXPECT_EQ(trace.truncated, !between_chunks) << "cut at " << cut;
  }
}

TEST(TraceTruncation, OneRecordPerChunk) {
  const std::vector<Event> events = one_event_of_each_kind();
  std::vector<size_t> ends;
  size_t header_end = 0;
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 1, [&](Writer& w) {
    header_end = w.bytes_written();
    for (const Event& e : events) {
      w.append(e);  // a chunk size of 1 flushes every record
      ends.push_back(w.bytes_written());
    }
  });
  std::vector<size_t> chunk_ends = {header_end};
  chunk_ends.insert(chunk_ends.end(), ends.begin(), ends.end());
  expect_every_cut_reads_whole_records(bytes, events, ends, chunk_ends);
}

TEST(TraceTruncation, ManyRecordsInOneChunk) {
  const std::vector<Event> events = one_event_of_each_kind();
  size_t header_end = 0;
  const std::vector<uint8_t> bytes = write_bytes(sample_header(), 1 << 20, [&](Writer& w) {
    header_end = w.bytes_written();
    for (const Event& e : events) w.append(e);
  });
  // The one chunk of events starts right after the header's chunk.
  std::vector<size_t> ends;
  size_t end = header_end + kChunkHeaderBytes;
  for (const Event& e : events) {
    std::vector<uint8_t> record;
    encode(record, e);
    end += record.size();
    ends.push_back(end);
  }
  ASSERT_EQ(end, bytes.size());
  expect_every_cut_reads_whole_records(bytes, events, ends, {header_end, bytes.size()});
}

}  // namespace
}  // namespace tidepool::trace
