// The period of a symbol stream: the smallest lag at which the stream repeats itself (almost)
// exactly, tolerant of a prologue and warm-up before the repetition, a partial tail after it, and
// a little noise. O(n log n): an FFT autocorrelation of random phases ranks every lag, and the best
// few (with their divisors) are then scored exactly.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration {

struct Periodicity {
  std::size_t period = 0;   // in events
  Range region;             // where the stream repeats: symbols[i] == symbols[i + period] mostly
                            // for i in [region.begin, region.end - period)
  double match_fraction = 0;  // fraction of those i that match
};

// nullopt when nothing repeats at least twice.
std::optional<Periodicity> find_period(std::span<const std::uint64_t> symbols);

}  // namespace tidepool::iteration
