// The fingerprint of an iteration: FNV-1a (64 bits) over its allocation sizes and kernel names in
// order. Per allocation: the byte 'A' then the requested size as 8 little-endian bytes; per
// kernel launch: the byte 'K', the kernel's name, then a 0 byte. Frees, copies and sets are not
// part of it. The runtime feeds what it sees from an iteration boundary to a Fingerprinter and
// compares the text with the plan's.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::plan {

class Fingerprinter {
 public:
  void add_alloc(std::uint64_t bytes);
  void add_kernel(std::string_view name);
  std::uint64_t value() const { return hash_; }
  std::string text() const;  // "fnv1a64:" + 16 lowercase hex digits

 private:
  std::uint64_t hash_ = 14695981039346656037ull;
};

std::string fingerprint(const iteration::EventStream& stream, iteration::Range iteration);

}  // namespace tidepool::plan
