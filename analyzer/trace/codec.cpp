// Encoding and decoding of records, driven by the field lists of fields.h.
#include "analyzer/trace/codec.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "analyzer/trace/fields.h"
#include "analyzer/trace/varint.h"

namespace tidepool::trace {
namespace {

template <class T>
constexpr bool kIsComposite = std::is_same_v<T, Range> || std::is_same_v<T, Access>;

// Walks the fields of a value, calling sink.uint(v) for each integer and sink.bytes(s) for each
// string; used twice per record: once to size the body, once to write it.
template <class Sink>
struct FieldWriter {
  Sink& sink;

  template <class T>
  void operator()(const char*, const T& value) const {
    put(value);
  }
  template <class T>
  void put(const T& value) const {
    if constexpr (std::is_same_v<T, bool>) {
      sink.uint(value ? 1 : 0);
    } else if constexpr (std::is_enum_v<T>) {
      sink.uint(static_cast<uint64_t>(value));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      sink.uint(varint::zigzag(value));
    } else if constexpr (std::is_integral_v<T>) {
      sink.uint(value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      sink.uint(value.size());
      sink.bytes(value);
    } else if constexpr (IsVector<T>::value) {
      sink.uint(value.size());
      for (const auto& element : value) put(element);
    } else if constexpr (std::is_same_v<T, std::array<uint32_t, 3>>) {
      for (uint32_t v : value) sink.uint(v);
    } else {
      static_assert(kIsComposite<T>);
      for_each_field(value, *this);
    }
  }
};

// An upper bound of a body's size: every integer at its longest, strings exact. A constant for
// records of integers only (the compiler folds it), a walk over the lists of the others.
struct BoundSink {
  static constexpr size_t kLongestVarint = 10;
  size_t total = 0;
  void uint(uint64_t) { total += kLongestVarint; }
  void bytes(const std::string& s) { total += s.size(); }
};

// Writes into room made beforehand (a BoundSink told how much).
struct RawSink {
  uint8_t* at;
  void uint(uint64_t v) { at = varint::put(at, v); }
  void bytes(const std::string& s) { at = std::copy(s.begin(), s.end(), at); }
};

// Writes the common event prefix (or nothing for metadata) and the record's fields.
template <class Sink, class R>
void write_body(Sink& sink, const Event* event, const R& record) {
  if (event) {
    sink.uint(event->seq);
    sink.uint(event->time_ns);
    sink.uint(event->thread);
  }
  FieldWriter<Sink> writer{sink};
  for_each_field(record, writer);
}

template <class R>
size_t record_bound(const Event* event, const R& record) {
  BoundSink bound;
  write_body(bound, event, record);
  return varint::size(static_cast<uint64_t>(R::tag)) + varint::size(bound.total) + bound.total;
}

// One walk over the fields: the body is written where a one-byte length leaves it (almost every
// record is shorter than 128 bytes) and moved up in the rare case that its length needs more.
template <class R>
size_t encode_record(std::span<uint8_t> room, const Event* event, const R& record) {
  uint8_t* const start = room.data();
  RawSink tag{start};
  tag.uint(static_cast<uint64_t>(R::tag));
  uint8_t* const body = tag.at + 1;
  RawSink sink{body};
  write_body(sink, event, record);
  const auto length = static_cast<size_t>(sink.at - body);
  const size_t length_bytes = varint::size(length);
  if (length_bytes > 1) std::memmove(body + length_bytes - 1, body, length);
  varint::put(tag.at, length);
  return static_cast<size_t>(tag.at - start) + length_bytes + length;
}

template <class R>
void append_record(std::vector<uint8_t>& out, const Event* event, const R& record) {
  const size_t start = out.size();
  out.resize(start + record_bound(event, record));
  out.resize(start + encode_record(std::span(out).subspan(start), event, record));
}

// Reads fields from a record body. A body that ends exactly before a field leaves that field
// and all after it at their defaults (an older writer); a body that ends inside a field, or a value
// out of its type's range, is malformed.
struct FieldReader {
  std::span<const uint8_t> body;
  size_t pos = 0;
  bool ok = true;

  template <class T>
  void operator()(const char*, T& value) {
    if (!ok || pos == body.size()) return;
    get(value);
  }
  bool uint(uint64_t& v) {
    if (!varint::get(body, pos, v)) ok = false;
    return ok;
  }
  template <class T>
  void get(T& value) {
    uint64_t v = 0;
    if constexpr (std::is_same_v<T, bool>) {
      if (uint(v) && v > 1) ok = false;
      value = v == 1;
    } else if constexpr (std::is_enum_v<T>) {
      using U = std::underlying_type_t<T>;
      if (uint(v) && v > std::numeric_limits<U>::max()) ok = false;
      value = static_cast<T>(static_cast<U>(v));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      uint(v);
      const int64_t s = varint::unzigzag(v);
      if (s < std::numeric_limits<T>::min() || s > std::numeric_limits<T>::max()) ok = false;
      value = static_cast<T>(s);
    } else if constexpr (std::is_integral_v<T>) {
      if (uint(v) && v > std::numeric_limits<T>::max()) ok = false;
      value = static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!uint(v)) return;
      if (v > body.size() - pos) {
        ok = false;
        return;
      }
      value.assign(reinterpret_cast<const char*>(body.data() + pos), v);
      pos += v;
    } else if constexpr (IsVector<T>::value) {
      if (!uint(v)) return;
      // Every element takes at least one byte: a count beyond the body is corrupt, and checking
      // it first keeps a corrupt count from allocating gigabytes.
      if (v > body.size() - pos) {
        ok = false;
        return;
      }
      value.resize(v);
      for (auto& element : value) {
        if (!ok) return;
        get(element);
      }
    } else if constexpr (std::is_same_v<T, std::array<uint32_t, 3>>) {
      for (uint32_t& element : value) get(element);
    } else {
      static_assert(kIsComposite<T>);
      for_each_field(value, [this](const char*, auto& field) {
        if (ok) get(field);
      });
    }
  }
};

template <class R>
bool read_fields(FieldReader& reader, R& record) {
  for_each_field(record, reader);
  return reader.ok;
}

template <size_t I = 0>
bool is_event_tag(uint32_t tag) {
  if constexpr (I == std::variant_size_v<Record>) {
    return false;
  } else {
    return tag == static_cast<uint32_t>(std::variant_alternative_t<I, Record>::tag) ||
           is_event_tag<I + 1>(tag);
  }
}

template <size_t I = 0>
bool decode_event_record(uint32_t tag, FieldReader& reader, Record& record) {
  if constexpr (I == std::variant_size_v<Record>) {
    return false;
  } else {
    using R = std::variant_alternative_t<I, Record>;
    if (tag == static_cast<uint32_t>(R::tag)) return read_fields(reader, record.emplace<R>());
    return decode_event_record<I + 1>(tag, reader, record);
  }
}

template <class R>
bool decode_meta(FieldReader& reader, DecodedRecord& out) {
  return read_fields(reader, out.emplace<R>());
}

}  // namespace

void encode(std::vector<uint8_t>& out, const Header& header) { append_record(out, nullptr, header); }
void encode(std::vector<uint8_t>& out, const Module& module) { append_record(out, nullptr, module); }
void encode(std::vector<uint8_t>& out, const Stack& stack) { append_record(out, nullptr, stack); }
void encode(std::vector<uint8_t>& out, const String& string) { append_record(out, nullptr, string); }
void encode(std::vector<uint8_t>& out, const Event& event) {
  std::visit([&](const auto& record) { append_record(out, &event, record); }, event.record);
}

size_t encoded_size_bound(const Stack& stack) { return record_bound(nullptr, stack); }
size_t encoded_size_bound(const String& string) { return record_bound(nullptr, string); }
size_t encoded_size_bound(const Event& event) {
  return std::visit([&](const auto& record) { return record_bound(&event, record); }, event.record);
}

size_t encode_into(std::span<uint8_t> room, const Stack& stack) { return encode_record(room, nullptr, stack); }
size_t encode_into(std::span<uint8_t> room, const String& string) { return encode_record(room, nullptr, string); }
size_t encode_into(std::span<uint8_t> room, const Event& event) {
  return std::visit([&](const auto& record) { return encode_record(room, &event, record); }, event.record);
}

DecodeStatus decode_record(std::span<const uint8_t> bytes, size_t& pos, DecodedRecord& out) {
  size_t cursor = pos;
  uint64_t tag = 0;
  uint64_t length = 0;
  if (!varint::get(bytes, cursor, tag) || !varint::get(bytes, cursor, length)) {
    // A varint that runs off the end is incomplete; one of more than 64 bits is not.
    return cursor >= bytes.size() ? DecodeStatus::incomplete : DecodeStatus::malformed;
  }
  if (length > bytes.size() - cursor) return DecodeStatus::incomplete;
  if (tag > std::numeric_limits<uint32_t>::max()) return DecodeStatus::malformed;
  FieldReader reader{bytes.subspan(cursor, length)};
  bool ok = true;
  switch (static_cast<RecordTag>(tag)) {
    case RecordTag::header: ok = decode_meta<Header>(reader, out); break;
    case RecordTag::module: ok = decode_meta<Module>(reader, out); break;
    case RecordTag::stack: ok = decode_meta<Stack>(reader, out); break;
    case RecordTag::string: ok = decode_meta<String>(reader, out); break;
    default: {
      if (!is_event_tag(static_cast<uint32_t>(tag))) {
        out = UnknownRecord{static_cast<uint32_t>(tag)};
        break;
      }
      Event event;
      uint64_t thread = 0;
      // Every event carries seq, time and thread: a body without them is malformed.
      ok = reader.uint(event.seq) && reader.uint(event.time_ns) && reader.uint(thread) &&
           thread <= std::numeric_limits<uint32_t>::max() &&
           decode_event_record(static_cast<uint32_t>(tag), reader, event.record);
      event.thread = static_cast<uint32_t>(thread);
      if (ok) out = std::move(event);
    }
  }
  if (!ok) return DecodeStatus::malformed;
  pos = cursor + length;
  return DecodeStatus::ok;
}

bool peek_event(std::span<const uint8_t> bytes, size_t pos, RecordTag& tag, uint64_t& seq, size_t& end) {
  uint64_t tag_value = 0;
  uint64_t length = 0;
  if (!varint::get(bytes, pos, tag_value) || !varint::get(bytes, pos, length)) return false;
  if (length > bytes.size() - pos || tag_value > std::numeric_limits<uint32_t>::max() ||
      !is_event_tag(static_cast<uint32_t>(tag_value))) {
    return false;
  }
  const std::span<const uint8_t> body = bytes.subspan(pos, length);
  size_t at = 0;
  if (!varint::get(body, at, seq)) return false;
  tag = static_cast<RecordTag>(tag_value);
  end = pos + length;
  return true;
}

}  // namespace tidepool::trace
