// Generated instances with a known perfect packing: a full rectangle (time x address) is filled
// with no slack, so the optimum height is the rectangle's height and equals the lower bound. Two
// kinds, so that no method is tuned to one:
// - perfect: the rectangle is cut at random, again and again, across time or across the address
//   space, until it is split into the requested number of items (guillotine cuts). The first cuts
//   are across the address space, so that the instance does not fall apart into time ranges;
// - grown: the rectangle is filled from the bottom, piece by piece, on a skyline (not guillotine
//   cuts: no straight line crosses the packing);
// - refill: the rectangle is filled from the left, as a program whose memory is always exactly full
//   would: at each step a few buffers are freed and the holes they leave are cut into new ones
//   (growth across time where grown grows across addresses; not guillotine cuts either).
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

// About `items` pieces grown on a skyline over `horizon` time steps up to `height`: the lowest
// run of equal floors (leftmost among equals) is cut in time at random points, and each piece gets
// an item of random size at that floor, capped by the room left below `height` (so the last item
// of a column fills it exactly). Sizes take `size_steps` values, multiples of one grain (8 by
// default, and for grown:N:SEED), so neighbouring floors often meet and their runs merge: the items
// above then straddle the cuts below. With 0, sizes are any from 1 up: runs then never merge, and
// the pieces are guillotine cuts again (and not about `items` of them: several times more). Item
// ids are 0..n-1 and alignment is 1.
inline constexpr std::uint64_t kGrownSizeSteps = 8;
PerfectInstance generate_grown(std::size_t items, std::uint64_t seed, Bytes height = Bytes{1} << 32,
                               Time horizon = Time{1} << 32, std::uint64_t size_steps = kGrownSizeSteps);

// About `items` pieces of a rectangle of `height` bytes, grown along time: about 2 sqrt(items)
// buffers cut the address space at time 0; then at each step (1 to 100 time units later) each
// live buffer ends with a probability drawn from 1-8% (at least one ends), the freed ranges that
// touch merge into holes, and each hole is cut at random points into about as many new buffers as
// ended in it (so the number live stays near its start); at the end all end together. Item ids
// are 0..n-1 and alignment is 1.
PerfectInstance generate_refill(std::size_t items, std::uint64_t seed, Bytes height = Bytes{1} << 32);

// The spellings of a generated instance, for messages and help.
inline constexpr std::string_view kGeneratorSpecs = "perfect:N:SEED[:STEPS], grown:N:SEED or refill:N:SEED";

// Whether `text` names a generated instance ("perfect:...", "grown:..." or "refill:...").
bool is_generator_spec(std::string_view text);

// The most items a spec may ask for (each takes about 100 bytes, and 1,000,000 about 1 s to make).
inline constexpr std::uint64_t kMaxGeneratedItems = 20'000'000;

// Parses "perfect:N:SEED", "grown:N:SEED" or "refill:N:SEED" (std::invalid_argument if
// malformed, or N above kMaxGeneratedItems) and generates that instance. "perfect:N:SEED:STEPS"
// cuts a rectangle of STEPS time steps instead of 2^32: with few steps, many cuts fall at the same
// times (coarse times, as a trace's event counter gives).
PerfectInstance generate_from_spec(std::string_view spec);

}  // namespace tidepool::packing
