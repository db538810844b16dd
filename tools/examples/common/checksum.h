// The result checksum every example prints: FNV-1a 64 over the result bytes, printed as one line
// "checksum: <16 hex digits>" on stdout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace examples {

class Checksum {
 public:
  void add(std::span<const std::byte> bytes);
  template <typename T>
  void add_values(std::span<const T> values) {
    add(std::as_bytes(values));
  }
  uint64_t value() const { return state_; }
  void print() const;

 private:
  uint64_t state_ = 0xcbf29ce484222325ull;
};

}  // namespace examples
