// Damaged bytes never crash the reader: random mutations of a valid trace's events chunk either
// read or give a TraceError. The file is also cut short by one byte, so that its last chunk is partial and its
// records are decoded without the CRC's protection (the decoder itself must hold).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "analyzer/trace/reader.h"
#include "sample_records.h"

namespace tidepool::trace {
namespace {

using testing::one_event_of_each_kind;
using testing::sample_header;
using testing::write_bytes;

TEST(TraceMutation, RandomDamageReadsOrFailsCleanly) {
  size_t header_end = 0;
  const std::vector<uint8_t> good = write_bytes(sample_header(), 1 << 20, [&](Writer& w) {
    header_end = w.bytes_written();
    for (const Event& e : one_event_of_each_kind()) w.append(e);
  });
  std::mt19937_64 random(42);
  size_t read = 0;
  size_t failed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bytes = good;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < flips; ++i) {
      bytes[header_end + random() % (bytes.size() - header_end)] = static_cast<uint8_t>(random());
    }
    if (round % 2 == 0) bytes.pop_back();
    try {
      const Trace trace = parse_trace(bytes);
      EXPECT_EQ(trace.header, sample_header());  // its chunk is intact
      ++read;
    } catch (const TraceError& e) {
      EXPECT_NE(std::string(e.what()), "");
      ++failed;
    }
  }
  EXPECT_GT(read, 0u);
  EXPECT_GT(failed, 0u);
}

}  // namespace
}  // namespace tidepool::trace
