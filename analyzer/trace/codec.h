// The record encoding (docs/trace-format.md): tag, body length and body, each integer a LEB128
// varint. encode() appends one record to a byte buffer, so that a producer thread can encode into
// a buffer of its own and hand whole records to Writer::append_encoded. It allocates only when
// the buffer grows (reuse the buffer: clear() keeps its capacity). encode_into() writes one
// record into memory that has room for it (the recorder's event chunks: no copy, no allocation).
// decode_record() is the inverse.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::trace {

void encode(std::vector<uint8_t>& out, const Header& header);
void encode(std::vector<uint8_t>& out, const Module& module);
void encode(std::vector<uint8_t>& out, const Stack& stack);
void encode(std::vector<uint8_t>& out, const String& string);
void encode(std::vector<uint8_t>& out, const Event& event);

// The most bytes encode_into() may write for the record (a constant for records of integers only).
size_t encoded_size_bound(const Stack& stack);
size_t encoded_size_bound(const String& string);
size_t encoded_size_bound(const Event& event);
// Writes the record at the start of `room`, which holds at least encoded_size_bound() bytes;
// returns the bytes written.
size_t encode_into(std::span<uint8_t> room, const Stack& stack);
size_t encode_into(std::span<uint8_t> room, const String& string);
size_t encode_into(std::span<uint8_t> room, const Event& event);

// One decoded record: metadata, an event, or a record of a newer writer that this reader skips.
struct UnknownRecord {
  uint32_t tag = 0;
};
using DecodedRecord = std::variant<Header, Module, Stack, String, Event, UnknownRecord>;

enum class DecodeStatus {
  ok,
  incomplete,  // the bytes end inside the record
  malformed,   // the record is whole but its body does not decode
};

// Decodes the record at pos and advances pos past it (only when ok).
DecodeStatus decode_record(std::span<const uint8_t> bytes, size_t& pos, DecodedRecord& out);

// The tag and sequence number of the event record at pos and where the record ends, read without
// decoding the rest of its body; false when there is no whole event record there (metadata, a
// newer writer's record, bytes that end inside it, or a malformed one): decode it instead.
bool peek_event(std::span<const uint8_t> bytes, size_t pos, RecordTag& tag, uint64_t& seq, size_t& end);

}  // namespace tidepool::trace
