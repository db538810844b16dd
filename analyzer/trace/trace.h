// A whole trace in memory, as the reader returns it: header, symbolization tables, and the events
// in sequence order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/trace/format.h"

namespace tidepool::trace {

struct Trace {
  uint32_t format_version = kFormatVersion;
  Header header;
  std::vector<Module> modules;                                  // in the order recorded
  std::unordered_map<uint32_t, std::vector<uint64_t>> stacks;   // stack id -> frames
  std::unordered_map<uint32_t, std::string> strings;            // string id -> text
  std::vector<Event> events;                                    // sorted by Event::seq
  // The file ended inside a chunk or a record (a killed program): everything up to the last whole
  // record was read. Reports say so.
  bool truncated = false;
  uint64_t bytes_read = 0;  // bytes of the file that were decoded

  // The text of string id, or "" when the id is 0 or unknown.
  std::string_view string(uint32_t id) const;
  // The frames of stack id, or none when the id is 0 or unknown.
  std::span<const uint64_t> stack(uint32_t id) const;
};

}  // namespace tidepool::trace
