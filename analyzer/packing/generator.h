// Generated instances with a known perfect packing: a full rectangle (time x address) is cut at
// random, again and again, across time or across the address space, until it is split into the
// requested number of items. The packing of the pieces fills the rectangle with no slack, so the
// optimum height is the rectangle's height and equals the lower bound. The first cuts are across
// the address space, so that the instance does not fall apart into independent time ranges.
#pragma once

#include <cstdint>
#include <string_view>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

struct PerfectInstance {
  Problem problem;
  Bytes optimum = 0;
  Solution packing;  // the packing the pieces came from: height == optimum == lower bound
};

// `items` pieces (at least 1) of a rectangle of `height` bytes over `horizon` time steps; item
// ids are 0..items-1 and alignment is 1.
PerfectInstance generate_perfect(std::size_t items, std::uint64_t seed, Bytes height = Bytes{1} << 32,
                                 Time horizon = Time{1} << 32);

// Parses "perfect:N:SEED" (std::invalid_argument if malformed) and generates that instance.
PerfectInstance generate_from_spec(std::string_view spec);

}  // namespace tidepool::packing
