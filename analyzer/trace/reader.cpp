// The trace reader: preamble, then chunks (CRC-checked), then records, into a Trace. A file is
// read a chunk at a time, so reading it takes memory for what is kept, not for the whole file.
#include "analyzer/trace/reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
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
  TraceBuilder(Trace& trace, const EventFilter& keep, const EventSkip& skip) : trace_(trace), keep_(keep), skip_(skip) {}

  // Decodes the records of one chunk's payload, which starts at file offset base. In a whole
  // chunk every record must decode; in the cut-off last chunk, reading stops at the first record
  // that is not whole.
  void add_records(std::span<const uint8_t> payload, uint64_t base, bool whole_chunk) {
    size_t pos = 0;
    while (pos < payload.size()) {
      RecordTag tag{};
      uint64_t seq = 0;
      size_t end = 0;
      if (skip_ && has_header_ && peek_event(payload, pos, tag, seq, end) && skip_(tag, seq)) {
        pos = end;
        trace_.bytes_read = base + pos;
        continue;
      }
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
  const EventSkip& skip_;
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
// meanwhile (a running program's trace) reads as far as it has gone; after `follow_on` a peek past
// that reads what was written since. It reads at its own offset (pread), so a descriptor shared
// with a forked child does not move under it.
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
      const ssize_t got = ::pread(fd_, buffer_.data() + held, wanted, static_cast<off_t>(file_offset_));
      if (got < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "cannot read");
      buffer_.resize(held + static_cast<size_t>(std::max<ssize_t>(got, 0)));
      file_offset_ += static_cast<uint64_t>(std::max<ssize_t>(got, 0));
      ended_ = got == 0;
    }
    return std::span<const uint8_t>(buffer_).subspan(at_, std::min(n, buffer_.size() - at_));
  }
  void consume(size_t n) { at_ += n; }
  // Lets peek read past where the file had ended.
  void follow_on() { ended_ = false; }

 private:
  static constexpr size_t kReadBytes = 1 << 16;
  int fd_;
  std::vector<uint8_t> buffer_;
  size_t at_ = 0;
  uint64_t file_offset_ = 0;  // of buffer_'s end
  bool ended_ = false;
};

// A source's preamble and chunks decoded into a Trace, a chunk at a time. A whole read goes
// through once; a follower (TraceFollower) comes back for the chunks written since.
class Parser {
 public:
  Parser(Trace& trace, const EventFilter& keep, const EventSkip& skip) : trace_(trace), builder_(trace, keep, skip) {}

  // The preamble, once. When following, false while the file does not hold all of it yet.
  template <class Source>
  bool read_preamble(Source& source, bool following) {
    if (preamble_read_) return true;
    const std::span<const uint8_t> preamble = source.peek(kPreambleBytes);
    if (preamble.empty() && following) return false;
    const size_t magic_seen = std::min(preamble.size(), kMagic.size());
    if (preamble.empty() || std::memcmp(preamble.data(), kMagic.data(), magic_seen) != 0) {
      throw TraceError("not a tidepool trace");
    }
    if (preamble.size() < kPreambleBytes) {
      if (following) return false;
      throw TraceError("truncated before its header");
    }
    trace_.format_version = get_u32(preamble, 8);
    if (trace_.format_version != kFormatVersion) {
      throw TraceError("unsupported version " + std::to_string(trace_.format_version) +
                       " (this tidepool reads version " + std::to_string(kFormatVersion) + ")");
    }
    source.consume(kPreambleBytes);
    trace_.bytes_read = kPreambleBytes;
    at_ = kPreambleBytes;
    preamble_read_ = true;
    return true;
  }

  // The whole chunks up to the source's end, or until `done`. A chunk cut off there is read up to
  // its last whole record and marks the trace truncated; when following a file still being
  // written, it is left for the next call instead.
  template <class Source>
  void read_chunks(Source& source, bool following, const ReadDone& done = {}) {
    for (;;) {
      if (done && done()) return;
      const std::span<const uint8_t> head = source.peek(kChunkHeaderBytes);
      if (head.empty()) break;
      if (head.size() < kChunkHeaderBytes) {
        trace_.truncated = !following;
        break;
      }
      const uint32_t length = get_u32(head, 0);
      const uint32_t crc = get_u32(head, 4);
      if (length == 0 || length > kMaxChunkBytes) {
        throw TraceError("corrupt chunk at offset " + std::to_string(at_));
      }
      const uint64_t payload_at = at_ + kChunkHeaderBytes;
      const std::span<const uint8_t> payload = source.peek(kChunkHeaderBytes + length).subspan(kChunkHeaderBytes);
      if (payload.size() < length) {
        if (following) break;
        // The program died while this chunk was being written: keep its whole records.
        builder_.add_records(payload, payload_at, false);
        trace_.truncated = true;
        break;
      }
      if (crc32(payload) != crc) throw TraceError("corrupt chunk at offset " + std::to_string(at_));
      builder_.add_records(payload, payload_at, true);
      source.consume(kChunkHeaderBytes + length);
      at_ = payload_at + length;
    }
    // A file being written may not hold its header's chunk yet: a follower waits for it.
    if (!following && !builder_.has_header()) throw TraceError("truncated before its header");
  }

 private:
  Trace& trace_;
  TraceBuilder builder_;
  bool preamble_read_ = false;
  uint64_t at_ = 0;  // the file offset of the source's position
};

template <class Source>
Trace parse(Source& source, const EventFilter& keep, const EventSkip& skip,
            const ReadDone& done = {}) {
  Trace trace;
  Parser parser(trace, keep, skip);
  parser.read_preamble(source, false);
  parser.read_chunks(source, false, done);
  const auto by_seq = [](const Event& a, const Event& b) { return a.seq < b.seq; };
  if (!std::is_sorted(trace.events.begin(), trace.events.end(), by_seq)) {
    std::stable_sort(trace.events.begin(), trace.events.end(), by_seq);
  }
  return trace;
}

// Runs `read` with the path prefixed to its errors.
template <class Read>
auto naming_the_file(const std::filesystem::path& path, Read&& read) {
  try {
    return read();
  } catch (const TraceError& e) {
    throw TraceError(path.string() + ": " + e.what());
  } catch (const std::system_error& e) {  // open or read: "cannot read: Input/output error"
    throw TraceError(path.string() + ": " + e.what());
  }
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
  return parse(source, EventFilter{}, EventSkip{});
}

Trace read_trace(const std::filesystem::path& path, const EventFilter& keep, const EventSkip& skip,
                 const ReadDone& done) {
  return naming_the_file(path, [&] {
    FileSource source(path);
    return parse(source, keep, skip, done);
  });
}

struct TraceFollower::State {
  State(const std::filesystem::path& path, EventFilter filter, EventSkip skipping)
      : path(path), keep(std::move(filter)), skip(std::move(skipping)), source(path), parser(trace, keep, skip) {}
  std::filesystem::path path;
  EventFilter keep;
  EventSkip skip;
  Trace trace;
  FileSource source;
  Parser parser;
};

TraceFollower::TraceFollower(const std::filesystem::path& path, EventFilter keep, EventSkip skip)
    : state_(naming_the_file(path, [&] { return std::make_unique<State>(path, std::move(keep), std::move(skip)); })) {}

TraceFollower::~TraceFollower() = default;

void TraceFollower::read_more() {
  naming_the_file(state_->path, [&] {
    state_->source.follow_on();
    if (state_->parser.read_preamble(state_->source, true)) state_->parser.read_chunks(state_->source, true);
    return 0;
  });
}

const Trace& TraceFollower::trace() const { return state_->trace; }

}  // namespace tidepool::trace
