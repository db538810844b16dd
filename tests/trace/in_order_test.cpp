// Reading a trace file in sequence order without holding it (InOrderReader): each wanted event
// once, in sequence order, with the index read_trace gives it, however the file orders them and
// however sparse their numbers are; the unwanted ones not decoded; errors as read_trace's.
#include "analyzer/trace/in_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

// 20,000 events of every kind, numbered with gaps (dense runs, a jump of 10^12, single numbers
// pages apart), written in small chunks in an order that runs up to 500 events ahead or behind
// sequence order, as per-thread buffers do.
std::vector<uint8_t> shuffled_trace(std::vector<Event>& in_sequence_order) {
  const std::vector<Event> kinds = one_event_of_each_kind();
  uint64_t seq = 5;
  for (size_t i = 0; i < 20000; ++i) {
    Event e = kinds[i % kinds.size()];
    seq += i == 12000 ? 1000000000000 : (i % 700 == 0 ? 3000 : 1 + i % 3);
    e.seq = seq;
    in_sequence_order.push_back(e);
  }
  std::vector<Event> file_order = in_sequence_order;
  std::mt19937_64 rng(7);
  for (size_t begin = 0; begin < file_order.size(); begin += 500) {
    const auto first = file_order.begin() + static_cast<std::ptrdiff_t>(begin);
    std::shuffle(first,
                 first + std::min<std::ptrdiff_t>(
                             500, static_cast<std::ptrdiff_t>(file_order.size() - begin)),
                 rng);
  }
  return write_bytes(sample_header(), 4096, [&](Writer& w) {
    w.append(String{1, "gemm"});
    for (const Event& e : file_order) w.append(e);
  });
}

struct Visited {
  std::vector<Event> events;
  std::vector<uint64_t> indices;
};

Visited read_wanted(const InOrderReader& reader, const InOrderReader::Wanted& wanted,
                    uint64_t end = UINT64_MAX) {
  Visited v;
  reader.read(
      wanted,
      [&](Event&& e, uint64_t index) {
        v.events.push_back(std::move(e));
        v.indices.push_back(index);
      },
      end);
  return v;
}

TEST(InOrderReader, HandsOverEveryEventInSequenceOrderWithItsIndex) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = shuffled_trace(events);
  test_support::TempDir dir("tidepool-in-order");
  const std::filesystem::path file = write_file(dir.path() / "t.tpt", bytes);
  const Trace whole = read_trace(file);
  ASSERT_EQ(whole.events, events);

  const InOrderReader reader(file);
  EXPECT_EQ(reader.events(), events.size());
  EXPECT_TRUE(reader.trace().events.empty());
  EXPECT_EQ(reader.trace().strings, whole.strings);
  EXPECT_EQ(reader.trace().header.pid, whole.header.pid);
  EXPECT_FALSE(reader.trace().truncated);

  const Visited all = read_wanted(reader, [](RecordTag) { return true; });
  EXPECT_EQ(all.events, events);
  std::vector<uint64_t> positions(events.size());
  for (size_t i = 0; i < positions.size(); ++i) positions[i] = i;
  EXPECT_EQ(all.indices, positions);
}

TEST(InOrderReader, HandsOverOnlyTheWantedTagsAtTheirIndicesInTheWholeTrace) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = shuffled_trace(events);
  test_support::TempDir dir("tidepool-in-order-wanted");
  const InOrderReader reader(write_file(dir.path() / "t.tpt", bytes));
  const auto wanted = [](RecordTag tag) {
    return tag == RecordTag::alloc || tag == RecordTag::launch || tag == RecordTag::range_pop;
  };
  Visited expected;
  for (size_t i = 0; i < events.size(); ++i) {
    if (!wanted(tag_of(events[i].record))) continue;
    expected.events.push_back(events[i]);
    expected.indices.push_back(i);
  }
  ASSERT_GT(expected.events.size(), 1000u);
  const Visited v = read_wanted(reader, wanted);
  EXPECT_EQ(v.events, expected.events);
  EXPECT_EQ(v.indices, expected.indices);
  // Reading again gives the same.
  EXPECT_EQ(read_wanted(reader, wanted).indices, expected.indices);
  EXPECT_TRUE(read_wanted(reader, [](RecordTag) { return false; }).events.empty());
}

// A read with an end hands over the wanted events below it and stops reading the file there: a
// tail made unreadable after the first pass is not reached.
TEST(InOrderReader, ReadsNoFurtherThanTheEndItIsGiven) {
  std::vector<Event> events;
  std::vector<uint8_t> bytes = shuffled_trace(events);
  test_support::TempDir dir("tidepool-in-order-end");
  const std::filesystem::path file = write_file(dir.path() / "t.tpt", bytes);
  const InOrderReader reader(file);
  const auto wanted = [](RecordTag tag) {
    return tag == RecordTag::alloc || tag == RecordTag::free;
  };
  for (const uint64_t end : {uint64_t{0}, uint64_t{1}, uint64_t{777}, uint64_t{12345},
                             uint64_t{20000}, uint64_t{1} << 40}) {
    Visited expected;
    for (size_t i = 0; i < events.size() && i < end; ++i) {
      if (!wanted(tag_of(events[i].record))) continue;
      expected.events.push_back(events[i]);
      expected.indices.push_back(i);
    }
    const Visited v = read_wanted(reader, wanted, end);
    EXPECT_EQ(v.events, expected.events) << end;
    EXPECT_EQ(v.indices, expected.indices) << end;
  }
  EXPECT_TRUE(reader.any(wanted));
  EXPECT_FALSE(reader.any([](RecordTag) { return false; }));

  std::fill(bytes.end() - 1000, bytes.end(), uint8_t{0xa5});
  write_file(file, bytes);
  for (const std::ptrdiff_t end : {2000, 2250}) {  // 2250: within a stretch written shuffled
    EXPECT_EQ(read_wanted(reader, wanted, static_cast<uint64_t>(end)).indices.size(),
              static_cast<size_t>(
                  std::count_if(events.begin(), events.begin() + end,
                                [&](const Event& e) { return wanted(tag_of(e.record)); })));
  }
  EXPECT_THROW(read_wanted(reader, wanted), TraceError);
}

TEST(InOrderReader, ReadsATruncatedFileUpToItsLastWholeRecord) {
  std::vector<Event> events;
  const std::vector<uint8_t> bytes = shuffled_trace(events);
  test_support::TempDir dir("tidepool-in-order-cut");
  const std::span<const uint8_t> prefix(bytes.data(), bytes.size() * 2 / 3);
  const std::filesystem::path file = write_file(dir.path() / "cut.tpt", prefix);
  const Trace whole = read_trace(file);
  ASSERT_TRUE(whole.truncated);
  const InOrderReader reader(file);
  EXPECT_TRUE(reader.trace().truncated);
  EXPECT_EQ(reader.events(), whole.events.size());
  EXPECT_EQ(read_wanted(reader, [](RecordTag) { return true; }).events, whole.events);
}

TEST(InOrderReader, NamesTheFileInItsErrors) {
  test_support::TempDir dir("tidepool-in-order-errors");
  const std::filesystem::path missing = dir.path() / "missing.tpt";
  try {
    InOrderReader reader(missing);
    ADD_FAILURE() << "no error";
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing.string() + ": ", 0), 0u) << e.what();
  }
  const std::filesystem::path junk =
      write_file(dir.path() / "junk.tpt", std::vector<uint8_t>(100, 7));
  EXPECT_THROW(InOrderReader{junk}, TraceError);
}

}  // namespace
}  // namespace tidepool::trace
