// The chunked trace writer: buffer records, write them as length + CRC32 + records.
#include "analyzer/trace/writer.h"

#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <new>

#include "analyzer/trace/codec.h"
#include "analyzer/trace/crc32.h"

namespace tidepool::trace {
namespace {

void put_u32(uint8_t* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

Writer::Writer(int fd, size_t chunk_bytes) noexcept : fd_(fd), chunk_bytes_(chunk_bytes) {}

Writer::~Writer() {
  if (begun_) flush();
}

WriteStatus Writer::begin(const Header& header) noexcept {
  std::array<uint8_t, 16> preamble{};
  for (size_t i = 0; i < kMagic.size(); ++i) preamble[i] = static_cast<uint8_t>(kMagic[i]);
  put_u32(&preamble[8], kFormatVersion);
  put_u32(&preamble[12], 0);  // flags
  if (WriteStatus s = write_all(preamble, {}); s != WriteStatus::ok) return s;
  begun_ = true;
  if (WriteStatus s = append_record(header); s != WriteStatus::ok) {
    begun_ = false;
    return s;
  }
  if (WriteStatus s = flush(); s != WriteStatus::ok) {
    begun_ = false;
    return s;
  }
  return WriteStatus::ok;
}

WriteStatus Writer::append(const Module& module) noexcept { return append_record(module); }
WriteStatus Writer::append(const Stack& stack) noexcept { return append_record(stack); }
WriteStatus Writer::append(const String& string) noexcept { return append_record(string); }
WriteStatus Writer::append(const Event& event) noexcept { return append_record(event); }

template <class Encodable>
WriteStatus Writer::append_record(const Encodable& record) noexcept {
  if (!begun_) return WriteStatus::not_begun;
  const size_t before = records_.size();
  try {
    if (records_.capacity() == 0) records_.reserve(chunk_bytes_ + chunk_bytes_ / 4);
    encode(records_, record);
  } catch (const std::bad_alloc&) {
    records_.resize(before);
    return WriteStatus::out_of_memory;
  }
  return after_append();
}

WriteStatus Writer::append_encoded(std::span<const uint8_t> records) noexcept {
  if (!begun_) return WriteStatus::not_begun;
  if (records.size() > kMaxChunkBytes) return WriteStatus::too_large;
  if (records_.size() + records.size() > kMaxChunkBytes) {
    if (WriteStatus s = flush(); s != WriteStatus::ok) return s;
  }
  try {
    records_.insert(records_.end(), records.begin(), records.end());
  } catch (const std::bad_alloc&) {
    return WriteStatus::out_of_memory;
  }
  return after_append();
}

WriteStatus Writer::after_append() noexcept {
  return records_.size() >= chunk_bytes_ ? flush() : WriteStatus::ok;
}

WriteStatus Writer::flush() noexcept {
  if (!begun_) return WriteStatus::not_begun;
  if (records_.empty()) return WriteStatus::ok;
  std::array<uint8_t, 8> head{};
  put_u32(&head[0], static_cast<uint32_t>(records_.size()));
  put_u32(&head[4], crc32(records_));
  const WriteStatus s = write_all(head, records_);
  records_.clear();  // keeps the capacity
  return s;
}

WriteStatus Writer::write_all(std::span<const uint8_t> head,
                              std::span<const uint8_t> body) noexcept {
  std::array<iovec, 2> parts = {iovec{const_cast<uint8_t*>(head.data()), head.size()},
                                iovec{const_cast<uint8_t*>(body.data()), body.size()}};
  size_t first = 0;
  while (first < parts.size()) {
    const ssize_t n = ::writev(fd_, &parts[first], static_cast<int>(parts.size() - first));
    if (n < 0) {
      if (errno == EINTR) continue;
      return WriteStatus::io_error;
    }
    bytes_written_ += static_cast<uint64_t>(n);
    size_t done = static_cast<size_t>(n);
    while (first < parts.size() && done >= parts[first].iov_len) {
      done -= parts[first].iov_len;
      ++first;
    }
    if (first < parts.size()) {
      parts[first].iov_base = static_cast<uint8_t*>(parts[first].iov_base) + done;
      parts[first].iov_len -= done;
    }
  }
  return WriteStatus::ok;
}

}  // namespace tidepool::trace
