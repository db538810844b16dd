// Writes a trace to a file descriptor: records accumulate in an in-memory buffer and go to the
// file as whole chunks (length + CRC32 + records), at flush() or when the buffer reaches the chunk
// size, so a killed program leaves a file that reads up to its last flushed record.
//
// Made for the interceptor's background thread: no method throws or allocates per record once the
// buffer has grown to the chunk size; errors are returned. Not thread-safe: one thread per Writer.
// The Writer does not own the descriptor (the caller opens and closes it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::trace {

enum class WriteStatus {
  ok,
  io_error,       // write(2) failed; errno says why; the records of that chunk are lost
  out_of_memory,  // the buffer could not grow; the record was dropped
  not_begun,      // begin() was not called (or failed): nothing is written before the header
  too_large,      // append_encoded was given more than kMaxChunkBytes at once
};

inline constexpr size_t kDefaultChunkBytes = 64 * 1024;

class Writer {
 public:
  explicit Writer(int fd, size_t chunk_bytes = kDefaultChunkBytes) noexcept;
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // Flushes what is left; errors at this point are lost (call flush() first to see them).
  ~Writer();

  // Writes the file preamble (magic, version) and the header as its own chunk. Call once, first.
  WriteStatus begin(const Header& header) noexcept;

  WriteStatus append(const Module& module) noexcept;
  WriteStatus append(const Stack& stack) noexcept;
  WriteStatus append(const String& string) noexcept;
  WriteStatus append(const Event& event) noexcept;
  // Whole records made by encode() (codec.h), appended as they are (at most kMaxChunkBytes).
  WriteStatus append_encoded(std::span<const uint8_t> records) noexcept;

  // Writes the buffered records as one chunk (nothing when the buffer is empty).
  WriteStatus flush() noexcept;

  uint64_t bytes_written() const noexcept { return bytes_written_; }

 private:
  template <class Encodable>
  WriteStatus append_record(const Encodable& record) noexcept;
  WriteStatus after_append() noexcept;
  WriteStatus write_all(std::span<const uint8_t> head, std::span<const uint8_t> body) noexcept;

  int fd_;
  size_t chunk_bytes_;
  bool begun_ = false;
  std::vector<uint8_t> records_;  // records of the chunk being built
  uint64_t bytes_written_ = 0;
};

}  // namespace tidepool::trace
