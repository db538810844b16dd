// The recorder's per-thread chunks: records written by a thread reach the writer whole, in order,
// exactly once, across chunk boundaries, with a writer draining at the same time; only what is
// committed of a reservation is published; a record larger than a chunk gets one of its own;
// chunks read to the end are reused.
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/event_chunks.h"

namespace tidepool::runtime {
namespace {

// A "record" here is 8 bytes holding its own index.
std::vector<uint8_t> record(uint64_t index) {
  std::vector<uint8_t> bytes(8);
  std::memcpy(bytes.data(), &index, 8);
  return bytes;
}

// What the recorder does with one encoded record: reserve, write, commit.
enum class Appended { into_current, into_fresh_chunk, dropped };
Appended append(ThreadEvents& events, const std::vector<uint8_t>& bytes) {
  const ThreadEvents::Room room = events.reserve(bytes.size());
  if (room.bytes.empty()) return Appended::dropped;
  std::memcpy(room.bytes.data(), bytes.data(), bytes.size());
  events.commit(bytes.size());
  return room.fresh_chunk ? Appended::into_fresh_chunk : Appended::into_current;
}

struct Collected {
  std::vector<uint8_t> bytes;
  void operator()(std::span<const uint8_t> more) { bytes.insert(bytes.end(), more.begin(), more.end()); }
  std::vector<uint64_t> indices() const {
    std::vector<uint64_t> out(bytes.size() / 8);
    std::memcpy(out.data(), bytes.data(), out.size() * 8);
    return out;
  }
};

TEST(EventChunks, ConcurrentDrainSeesEveryRecordOnceInOrder) {
  ChunkPool pool;
  ThreadEvents events(pool);
  constexpr uint64_t kRecords = 200000;  // about six chunks
  std::atomic<bool> done{false};
  std::thread producer([&] {
    for (uint64_t i = 0; i < kRecords; ++i) ASSERT_NE(append(events, record(i)), Appended::dropped);
    done = true;
  });
  Collected sink;
  while (!done) events.drain(sink);
  producer.join();
  EXPECT_TRUE(events.drain(sink));
  const std::vector<uint64_t> got = sink.indices();
  ASSERT_EQ(got.size(), kRecords);
  for (uint64_t i = 0; i < kRecords; ++i) ASSERT_EQ(got[i], i);
}

TEST(EventChunks, OnlyTheCommittedPartOfAReservationIsPublished) {
  ChunkPool pool;
  ThreadEvents events(pool);
  ThreadEvents::Room room = events.reserve(64);  // a bound; the record takes 8
  ASSERT_EQ(room.bytes.size(), 64u);
  EXPECT_TRUE(room.fresh_chunk);
  const std::vector<uint8_t> first = record(7);
  std::memcpy(room.bytes.data(), first.data(), 8);
  std::memset(room.bytes.data() + 8, 0xee, 56);  // written past the record, never committed
  events.commit(8);
  Collected sink;
  events.drain(sink);
  EXPECT_EQ(sink.indices(), std::vector<uint64_t>{7});
  EXPECT_EQ(append(events, record(8)), Appended::into_current);  // right after the first
  EXPECT_TRUE(events.drain(sink));
  EXPECT_EQ(sink.indices(), (std::vector<uint64_t>{7, 8}));
}

TEST(EventChunks, OversizedRecordGetsAChunkOfItsOwn) {
  ChunkPool pool;
  ThreadEvents events(pool);
  EXPECT_EQ(append(events, record(1)), Appended::into_fresh_chunk);  // the first chunk
  const std::vector<uint8_t> big(EventChunk::kStandardBytes * 2 + 8, 0xab);
  EXPECT_EQ(append(events, big), Appended::into_fresh_chunk);
  EXPECT_EQ(append(events, record(2)), Appended::into_fresh_chunk);  // the big one is full
  Collected sink;
  EXPECT_TRUE(events.drain(sink));
  ASSERT_EQ(sink.bytes.size(), 8 + big.size() + 8);
  EXPECT_EQ(sink.bytes[8], 0xab);
  EXPECT_EQ(sink.bytes[8 + big.size() - 1], 0xab);
  uint64_t last = 0;
  std::memcpy(&last, sink.bytes.data() + 8 + big.size(), 8);
  EXPECT_EQ(last, 2u);
}

TEST(EventChunks, ChunksReadToTheEndAreReused) {
  ChunkPool pool;
  ThreadEvents events(pool);
  const std::vector<uint8_t> half(EventChunk::kStandardBytes / 2 + 8, 1);
  Collected sink;
  EXPECT_EQ(append(events, half), Appended::into_fresh_chunk);
  EXPECT_EQ(append(events, half), Appended::into_fresh_chunk);  // seals the first chunk
  events.drain(sink);                // the first goes back to the pool
  const std::unique_ptr<EventChunk> reused = pool.take(8);
  ASSERT_NE(reused, nullptr);
  EXPECT_EQ(reused->committed.load(), 0u);
  EXPECT_EQ(reused->read, 0u);
  EXPECT_EQ(sink.bytes.size(), 2 * half.size());
}

TEST(EventChunks, PoolKeepsChunksReady) {
  ChunkPool pool;
  pool.keep_ready(3);
  std::vector<std::unique_ptr<EventChunk>> taken;
  for (int i = 0; i < 3; ++i) taken.push_back(pool.take(8));
  for (const auto& chunk : taken) {
    ASSERT_NE(chunk, nullptr);
    EXPECT_EQ(chunk->capacity, EventChunk::kStandardBytes);
  }
}

}  // namespace
}  // namespace tidepool::runtime
