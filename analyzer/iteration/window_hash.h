// O(1) hashes of any window of a symbol stream (polynomial prefix hashes modulo 2^61 - 1), so
// that iterations can be compared with each other in constant time (and O(log length) for the
// base's power, which is computed, not stored: 8 bytes a symbol in all).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration {

class WindowHasher {
 public:
  explicit WindowHasher(std::span<const std::uint64_t> symbols);
  // The hash of symbols[range.begin, range.end); equal windows hash equally, and the length is
  // part of the hash.
  std::uint64_t operator()(Range range) const;

 private:
  std::vector<std::uint64_t> prefix_;  // prefix_[i]: hash of symbols[0, i)
};

}  // namespace tidepool::iteration
