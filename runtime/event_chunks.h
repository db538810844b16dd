// The recorder's per-thread event buffers, free of locks on the recording path.
//
// Each recording thread encodes whole records straight into its current chunk and publishes how
// far it got with one release store (`committed`); bytes below that mark never change again. The
// writer thread reads published bytes concurrently, from where it stopped last time. When a chunk
// is full its thread seals it (queues it for the writer, under a lock taken once per chunk, not
// per record) and takes another from the pool; the writer returns chunks to the pool once it has
// read them, so steady recording neither allocates nor faults fresh pages in. Only the writer
// reads chunks or recycles them, so a chunk never goes back to the pool while it is being read.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace tidepool::runtime {

struct EventChunk {
  static constexpr size_t kStandardBytes = 256 << 10;

  explicit EventChunk(size_t capacity) : bytes(new uint8_t[capacity]), capacity(capacity) {}

  std::unique_ptr<uint8_t[]> bytes;
  size_t capacity;
  std::atomic<size_t> committed{0};  // written by the owning thread, read by the writer
  size_t read = 0;                   // the writer's: bytes already handed on
};

// Chunks read to the end, kept for reuse (standard-sized ones only).
class ChunkPool {
 public:
  // A chunk with room for `bytes`; nullptr when memory is exhausted.
  std::unique_ptr<EventChunk> take(size_t bytes);
  void give_back(std::unique_ptr<EventChunk> chunk);
  // Keeps `count` standard chunks ready, their pages touched, so that a recording thread that
  // fills a chunk takes the next one without allocating or faulting (the writer thread calls it).
  void keep_ready(size_t count);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<EventChunk>> free_;
};

// One recording thread's chunks: the one it writes and the sealed ones the writer has not read.
class ThreadEvents {
 public:
  explicit ThreadEvents(ChunkPool& pool) : pool_(pool) {}
  ~ThreadEvents();
  ThreadEvents(const ThreadEvents&) = delete;
  ThreadEvents& operator=(const ThreadEvents&) = delete;

  // The owning thread only: room for `bytes` at the end of the current chunk, or at the start of
  // a fresh one (`fresh_chunk`: the full one is sealed for the writer); empty when no memory
  // could be found. What is written there is published by commit().
  struct Room {
    std::span<uint8_t> bytes;
    bool fresh_chunk = false;
  };
  Room reserve(size_t bytes);
  // Publishes the first `bytes` of the last reserved room: whole records only.
  void commit(size_t bytes);

  // The writer only: hands every published byte, in order, to `sink` and recycles the chunks
  // it finished. Returns whether the thread left nothing unread behind.
  template <class Sink>
  bool drain(Sink&& sink) {
    std::vector<std::unique_ptr<EventChunk>> sealed;
    EventChunk* current = nullptr;
    {
      // One snapshot of both, so that every chunk sealed before `current` is read before it.
      const std::lock_guard lock(mutex_);
      sealed.swap(sealed_);
      current = current_.get();
    }
    for (auto& chunk : sealed) {
      read_published(*chunk, sink);
      pool_.give_back(std::move(chunk));
    }
    if (current == nullptr) return true;
    read_published(*current, sink);
    return current->read == current->committed.load(std::memory_order_acquire);
  }

 private:
  template <class Sink>
  static void read_published(EventChunk& chunk, Sink& sink) {
    const size_t end = chunk.committed.load(std::memory_order_acquire);
    if (end > chunk.read) sink(std::span<const uint8_t>(chunk.bytes.get() + chunk.read, end - chunk.read));
    chunk.read = end;
  }

  ChunkPool& pool_;
  std::mutex mutex_;  // guards sealed_ and which chunk current_ holds
  std::unique_ptr<EventChunk> current_;
  std::vector<std::unique_ptr<EventChunk>> sealed_;
};

}  // namespace tidepool::runtime
