// One line of text per record, driven by the field lists of fields.h.
#include "analyzer/trace/text.h"

#include <array>
#include <cstdio>
#include <string_view>
#include <type_traits>

#include "analyzer/trace/fields.h"

namespace tidepool::trace {
namespace {

// Fields that hold handles or addresses print in hex.
bool is_hex_field(std::string_view name) {
  static constexpr std::array<std::string_view, 12> kHex = {
      "address", "stream", "pool", "handle", "context", "function",
      "event",   "graph",  "graph_exec", "module", "base", "frames"};
  for (std::string_view h : kHex) {
    if (name == h) return true;
  }
  return false;
}

// Fields that hold a string id print the string too.
bool is_string_id_field(std::string_view name) {
  return name == "kernel_name_id" || name == "name_id" || name == "reason_id" ||
         name == "fingerprint_id";
}

std::string hex(uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned char>(c));
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct LineWriter {
  const Trace* trace;  // for string ids; null for metadata
  std::string& out;
  bool hex_values = false;

  template <class T>
  void operator()(std::string_view name, const T& value) {
    out += ' ';
    out += name;
    out += '=';
    hex_values = is_hex_field(name);
    put(value);
    if (trace && is_string_id_field(name)) {
      if constexpr (std::is_integral_v<T>) {
        out += '(';
        out += quoted(trace->string(static_cast<uint32_t>(value)));
        out += ')';
      }
    }
  }

  template <class T>
  void put(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      out += value ? "1" : "0";
    } else if constexpr (std::is_enum_v<T>) {
      out += to_string(value);
    } else if constexpr (std::is_integral_v<T>) {
      if (hex_values) {
        out += hex(static_cast<uint64_t>(value));
      } else {
        out += std::to_string(value);
      }
    } else if constexpr (std::is_same_v<T, std::string>) {
      out += quoted(value);
    } else if constexpr (std::is_same_v<T, std::array<uint32_t, 3>>) {
      out += std::to_string(value[0]) + "," + std::to_string(value[1]) + "," +
             std::to_string(value[2]);
    } else if constexpr (std::is_same_v<T, Range> || std::is_same_v<T, Access>) {
      out += '{';
      bool first = true;
      for_each_field(value, [&](std::string_view name, const auto& field) {
        if (!first) out += ' ';
        first = false;
        out += name;
        out += '=';
        hex_values = name == "offset" && std::is_same_v<T, Range> && value.alloc_id == 0;
        put(field);
      });
      out += '}';
    } else {  // vectors
      out += '[';
      bool first = true;
      const bool hex_elements = hex_values;
      for (const auto& element : value) {
        if (!first) out += ' ';
        first = false;
        hex_values = hex_elements;
        put(element);
      }
      out += ']';
    }
  }
};

}  // namespace

std::string to_text(const Trace& trace, const Event& event) {
  std::string out = "#";
  out += std::to_string(event.seq);
  out += " t=";
  out += std::to_string(event.time_ns);
  out += "ns tid=";
  out += std::to_string(event.thread);
  out += ' ';
  std::visit(
      [&](const auto& record) {
        out += record_name(record.tag);
        LineWriter writer{&trace, out};
        for_each_field(record, writer);
      },
      event.record);
  return out;
}

std::string to_text(const Header& header) {
  std::string out = "header";
  LineWriter writer{nullptr, out};
  for_each_field(header, writer);
  return out;
}

std::string to_text(const Module& module) {
  std::string out = "module";
  LineWriter writer{nullptr, out};
  for_each_field(module, writer);
  return out;
}

std::string to_text(const Stack& stack) {
  std::string out = "stack";
  LineWriter writer{nullptr, out};
  for_each_field(stack, writer);
  return out;
}

}  // namespace tidepool::trace
