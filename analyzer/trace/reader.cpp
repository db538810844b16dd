// The trace reader: preamble, then chunks (CRC-checked), then records, into a Trace.
#include "analyzer/trace/reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

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
  explicit TraceBuilder(Trace& trace) : trace_(trace) {}

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
            trace_.events.push_back(std::move(r));
          }  // UnknownRecord: a newer writer's record, skipped
        },
        std::move(record));
  }

  Trace& trace_;
  bool has_header_ = false;
};

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
  const size_t magic_seen = std::min(bytes.size(), kMagic.size());
  if (bytes.empty() || std::memcmp(bytes.data(), kMagic.data(), magic_seen) != 0) {
    throw TraceError("not a tidepool trace");
  }
  if (bytes.size() < kPreambleBytes) throw TraceError("truncated before its header");
  Trace trace;
  trace.format_version = get_u32(bytes, 8);
  if (trace.format_version != kFormatVersion) {
    throw TraceError("unsupported version " + std::to_string(trace.format_version) +
                     " (this tidepool reads version " + std::to_string(kFormatVersion) + ")");
  }
  trace.bytes_read = kPreambleBytes;
  TraceBuilder builder(trace);
  size_t at = kPreambleBytes;
  while (at < bytes.size()) {
    if (bytes.size() - at < kChunkHeaderBytes) {
      trace.truncated = true;
      break;
    }
    const uint32_t length = get_u32(bytes, at);
    const uint32_t crc = get_u32(bytes, at + 4);
    if (length == 0 || length > kMaxChunkBytes) {
      throw TraceError("corrupt chunk at offset " + std::to_string(at));
    }
    const size_t payload_at = at + kChunkHeaderBytes;
    const size_t available = bytes.size() - payload_at;
    if (length > available) {
      // The program died while this chunk was being written: keep its whole records.
      builder.add_records(bytes.subspan(payload_at), payload_at, false);
      trace.truncated = true;
      break;
    }
    const auto payload = bytes.subspan(payload_at, length);
    if (crc32(payload) != crc) throw TraceError("corrupt chunk at offset " + std::to_string(at));
    builder.add_records(payload, payload_at, true);
    at = payload_at + length;
  }
  if (!builder.has_header()) throw TraceError("truncated before its header");
  const auto by_seq = [](const Event& a, const Event& b) { return a.seq < b.seq; };
  if (!std::is_sorted(trace.events.begin(), trace.events.end(), by_seq)) {
    std::stable_sort(trace.events.begin(), trace.events.end(), by_seq);
  }
  return trace;
}

Trace read_trace(const std::filesystem::path& path) {
  const auto fail = [&](const std::string& what) {
    throw TraceError(path.string() + ": " + what + ": " + std::strerror(errno));
  };
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open");
  std::vector<uint8_t> bytes;
  struct stat info {};
  const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
  if (regular) bytes.reserve(static_cast<size_t>(info.st_size));
  // Read to the end (a file that grows meanwhile, or a pipe, reads as far as it goes).
  uint8_t buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      errno = error;
      fail("cannot read");
    }
    bytes.insert(bytes.end(), buffer, buffer + n);
  }
  ::close(fd);
  try {
    return parse_trace(bytes);
  } catch (const TraceError& e) {
    throw TraceError(path.string() + ": " + e.what());
  }
}

}  // namespace tidepool::trace
