// Per-thread event chunks and their pool (see event_chunks.h).
#include "runtime/event_chunks.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace tidepool::runtime {

std::unique_ptr<EventChunk> ChunkPool::take(size_t bytes) {
  if (bytes <= EventChunk::kStandardBytes) {
    const std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<EventChunk> chunk = std::move(free_.back());
      free_.pop_back();
      chunk->committed.store(0, std::memory_order_relaxed);
      chunk->read = 0;
      return chunk;
    }
  }
  try {
    return std::make_unique<EventChunk>(std::max(bytes, EventChunk::kStandardBytes));
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

void ChunkPool::give_back(std::unique_ptr<EventChunk> chunk) {
  if (chunk == nullptr || chunk->capacity != EventChunk::kStandardBytes) return;  // oversized: freed
  const std::lock_guard lock(mutex_);
  try {
    free_.push_back(std::move(chunk));
  } catch (const std::bad_alloc&) {
    // freed instead
  }
}

void ChunkPool::keep_ready(size_t count) {
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (free_.size() >= count) return;
    }
    std::unique_ptr<EventChunk> chunk;
    try {
      chunk = std::make_unique<EventChunk>(EventChunk::kStandardBytes);
    } catch (const std::bad_alloc&) {
      return;
    }
    std::memset(chunk->bytes.get(), 0, chunk->capacity);  // faults the pages in here, not in a hook
    give_back(std::move(chunk));
  }
}

ThreadEvents::~ThreadEvents() {
  for (auto& chunk : sealed_) pool_.give_back(std::move(chunk));
  pool_.give_back(std::move(current_));
}

ThreadEvents::Room ThreadEvents::reserve(size_t bytes) {
  EventChunk* chunk = current_.get();
  if (chunk != nullptr) {
    const size_t at = chunk->committed.load(std::memory_order_relaxed);
    if (chunk->capacity - at >= bytes) return {{chunk->bytes.get() + at, bytes}, false};
  }
  std::unique_ptr<EventChunk> fresh = pool_.take(bytes);
  if (fresh == nullptr) return {};
  chunk = fresh.get();
  const std::lock_guard lock(mutex_);
  try {
    if (current_ != nullptr) sealed_.push_back(std::move(current_));
  } catch (const std::bad_alloc&) {
    return {};  // the fresh chunk goes; the full one stays current
  }
  current_ = std::move(fresh);
  return {{chunk->bytes.get(), bytes}, true};
}

void ThreadEvents::commit(size_t bytes) {
  EventChunk& chunk = *current_;
  chunk.committed.store(chunk.committed.load(std::memory_order_relaxed) + bytes, std::memory_order_release);
}

}  // namespace tidepool::runtime
