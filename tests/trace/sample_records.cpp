// Sample records for the trace tests: every field filled through fields.h, so that a field added
// to the schema is covered without touching the tests.
#include "sample_records.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <type_traits>
#include <utility>

#include "analyzer/trace/fields.h"

namespace tidepool::trace::testing {
namespace {

// Gives each field the next value of a counter (enums: a valid non-zero value).
struct Filler {
  uint64_t next = 1;

  template <class T>
  void operator()(const char*, T& value) {
    fill(value);
  }
  template <class T>
  void fill(T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      value = true;
    } else if constexpr (std::is_enum_v<T>) {
      value = static_cast<T>(1);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      value = -static_cast<T>(next++ % 1000);
    } else if constexpr (std::is_integral_v<T>) {
      // Large values exercise long varints.
      value = static_cast<T>(next++ * 0x9E3779B97F4A7C15ull);
    } else if constexpr (std::is_same_v<T, std::string>) {
      value = "text " + std::to_string(next++) + " with \"quotes\"";
    } else if constexpr (IsVector<T>::value) {
      value.resize(3);
      for (auto& element : value) fill(element);
    } else if constexpr (std::is_same_v<T, std::array<uint32_t, 3>>) {
      for (auto& element : value) fill(element);
    } else {
      for_each_field(value, *this);
    }
  }
};

template <size_t... I>
std::vector<Event> events_of(std::index_sequence<I...>) {
  std::vector<Event> events;
  Filler filler;
  (
      [&] {
        Event e;
        e.seq = events.size() + 1;
        e.time_ns = 1000 * e.seq;
        e.thread = 4242;
        auto& record = e.record.emplace<I>();
        for_each_field(record, filler);
        events.push_back(std::move(e));
      }(),
      ...);
  return events;
}

}  // namespace

Header sample_header() {
  Header h;
  Filler filler;
  for_each_field(h, filler);
  h.synthetic = false;
  return h;
}

std::vector<Event> one_event_of_each_kind() {
  return events_of(std::make_index_sequence<std::variant_size_v<Record>>{});
}

std::vector<uint8_t> write_bytes(const Header& header, size_t chunk_bytes,
                                 const std::function<void(Writer&)>& body) {
  std::FILE* file = std::tmpfile();
  EXPECT_NE(file, nullptr);
  const int fd = fileno(file);
  {
    Writer writer(fd, chunk_bytes);
    EXPECT_EQ(writer.begin(header), WriteStatus::ok);
    body(writer);
    EXPECT_EQ(writer.flush(), WriteStatus::ok);
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(lseek(fd, 0, SEEK_END)));
  EXPECT_EQ(pread(fd, bytes.data(), bytes.size(), 0), static_cast<ssize_t>(bytes.size()));
  std::fclose(file);
  return bytes;
}

std::filesystem::path write_file(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return path;
}

}  // namespace tidepool::trace::testing
