// The trace reader: preamble, then chunks (CRC-checked), then records, into a Trace. A file is
// read a chunk at a time, so reading it takes memory for what is kept, not for the whole file.
#include "analyzer/trace/reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/crc32.h"

namespace tidepool::trace {
namespace {

uint32_t get_u32(std::span<const uint8_t> bytes, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(bytes[at + i]) << (8 * i);
  return v;
}

class TraceBuilder {
 public:
  TraceBuilder(Trace& trace, const EventFilter& keep) : trace_(trace), keep_(keep) {}

  // Decodes the records of one chunk's payload, which starts at file offset base. In a whole
  // chunk every record must decode; in the cut-off last chunk, reading stops at the first record
  // that is not whole.
  void add_records(std::span<const uint8_t> payload, uint64_t base, bool whole_chunk) {
    size_t pos = 0;
    while (pos < payload.size()) {
      DecodedRecord record;
      const size_t start = pos;
      const DecodeStatus status = decode_record(payload, pos, record);
      if (status != DecodeStatus::ok) {
        if (whole_chunk || status == DecodeStatus::malformed) {
          throw TraceError("corrupt record at offset " + std::to_string(base + start));
        }
        trace_.truncated = true;
        return;
      }
      add(std::move(record), base + start);
      trace_.bytes_read = base + pos;
    }
  }

  bool has_header() const { return has_header_; }

 private:
  void add(DecodedRecord&& record, uint64_t offset) {
    if (!has_header_ && !std::holds_alternative<Header>(record)) {
      throw TraceError("no header record at offset " + std::to_string(offset));
    }
    std::visit(
        [&](auto&& r) {
          using R = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<R, Header>) {
            if (has_header_) throw TraceError("second header at offset " + std::to_string(offset));
            trace_.header = std::move(r);
            has_header_ = true;
          } else if constexpr (std::is_same_v<R, Module>) {
            trace_.modules.push_back(std::move(r));
          } else if constexpr (std::is_same_v<R, Stack>) {
            trace_.stacks[r.id] = std::move(r.frames);
          } else if constexpr (std::is_same_v<R, String>) {
            trace_.strings[r.id] = std::move(r.text);
          } else if constexpr (std::is_same_v<R, Event>) {
            if (!keep_ || keep_(r)) trace_.events.push_back(std::move(r));
          }  // UnknownRecord: a newer writer's record, skipped
        },
        std::move(record));
  }

  Trace& trace_;
  const EventFilter& keep_;
  bool has_header_ = false;
};

// Bytes held in memory.
class SpanSource {
 public:
  explicit SpanSource(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  // Up to n bytes from the current position; fewer only at the end.
  std::span<const uint8_t> peek(size_t n) const { return bytes_.subspan(at_, std::min(n, bytes_.size() - at_)); }
  void consume(size_t n) { at_ += n; }

 private:
  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
};

// A file read as far as peek needs, keeping only the bytes not yet consumed. A file that grows
// meanwhile (a running program's trace) reads as far as it has gone.
class FileSource {
 public:
  explicit FileSource(const std::filesystem::path& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "cannot open");
  }
  ~FileSource() { ::close(fd_); }
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;

  std::span<const uint8_t> peek(size_t n) {
    while (buffer_.size() - at_ < n && !ended_) {
      buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(at_));
      at_ = 0;
      const size_t held = buffer_.size();
      const size_t wanted = std::max(n - held, kReadBytes);
      buffer_.resize(held + wanted);
      const ssize_t got = ::read(fd_, buffer_.data() + held, wanted);
      buffer_.resize(held + static_cast<size_t>(std::max<ssize_t>(got, 0)));
      if (got < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "cannot read");
      ended_ = got == 0;
    }
    return std::span<const uint8_t>(buffer_).subspan(at_, std::min(n, buffer_.size() - at_));
  }
  void consume(size_t n) { at_ += n; }

 private:
  static constexpr size_t kReadBytes = 1 << 16;
  int fd_;
  std::vector<uint8_t> buffer_;
  size_t at_ = 0;
  bool ended_ = false;
};

template <class Source>
Trace parse(Source& source, const EventFilter& keep) {
  const std::span<const uint8_t> preamble = source.peek(kPreambleBytes);
  const size_t magic_seen = std::min(preamble.size(), kMagic.size());
  if (preamble.empty() || std::memcmp(preamble.data(), kMagic.data(), magic_seen) != 0) {
    throw TraceError("not a tidepool trace");
  }
  if (preamble.size() < kPreambleBytes) throw TraceError("truncated before its header");
  Trace trace;
  trace.format_version = get_u32(preamble, 8);
  if (trace.format_version != kFormatVersion) {
    throw TraceError("unsupported version " + std::to_string(trace.format_version) +
                     " (this tidepool reads version " + std::to_string(kFormatVersion) + ")");
  }
  source.consume(kPreambleBytes);
  trace.bytes_read = kPreambleBytes;
  TraceBuilder builder(trace, keep);
  uint64_t at = kPreambleBytes;  // the file offset of the source's position
  for (;;) {
    const std::span<const uint8_t> head = source.peek(kChunkHeaderBytes);
    if (head.empty()) break;
    if (head.size() < kChunkHeaderBytes) {
      trace.truncated = true;
      break;
    }
    const uint32_t length = get_u32(head, 0);
    const uint32_t crc = get_u32(head, 4);
    if (length == 0 || length > kMaxChunkBytes) {
      throw TraceError("corrupt chunk at offset " + std::to_string(at));
    }
    const uint64_t payload_at = at + kChunkHeaderBytes;
    const std::span<const uint8_t> payload = source.peek(kChunkHeaderBytes + length).subspan(kChunkHeaderBytes);
    if (payload.size() < length) {
      // The program died while this chunk was being written: keep its whole records.
      builder.add_records(payload, payload_at, false);
      trace.truncated = true;
      break;
    }
    if (crc32(payload) != crc) throw TraceError("corrupt chunk at offset " + std::to_string(at));
    builder.add_records(payload, payload_at, true);
    source.consume(kChunkHeaderBytes + length);
    at = payload_at + length;
  }
  if (!builder.has_header()) throw TraceError("truncated before its header");
  const auto by_seq = [](const Event& a, const Event& b) { return a.seq < b.seq; };
  if (!std::is_sorted(trace.events.begin(), trace.events.end(), by_seq)) {
    std::stable_sort(trace.events.begin(), trace.events.end(), by_seq);
  }
  return trace;
}

}  // namespace

std::string_view Trace::string(uint32_t id) const {
  const auto it = strings.find(id);
  return it == strings.end() ? std::string_view{} : std::string_view{it->second};
}

std::span<const uint64_t> Trace::stack(uint32_t id) const {
  const auto it = stacks.find(id);
  return it == stacks.end() ? std::span<const uint64_t>{} : std::span<const uint64_t>{it->second};
}

Trace parse_trace(std::span<const uint8_t> bytes) {
  SpanSource source(bytes);
  return parse(source, EventFilter{});
}

Trace read_trace(const std::filesystem::path& path, const EventFilter& keep) {
  try {
    FileSource source(path);
    return parse(source, keep);
  } catch (const TraceError& e) {
    throw TraceError(path.string() + ": " + e.what());
  } catch (const std::system_error& e) {  // open or read: "cannot read: Input/output error"
    throw TraceError(path.string() + ": " + e.what());
  }
}

}  // namespace tidepool::trace
