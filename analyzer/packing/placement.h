// One name for the greedy placement rules, so that portfolios and local search can treat an
// (order, rule) pair as one candidate packing.
#pragma once

#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

enum class Placer {
  gaps_best,     // place_in_gaps, best fit, in the order
  gaps_first,    // place_in_gaps, first fit, in the order
  lowest_first,  // place_lowest_first, the order breaking ties
  skyline,       // place_skyline, the order breaking ties
  free_blocks,   // place_in_free_blocks (heuristics.h): by start time, the order breaking ties
};

// The offsets that `placer` gives for the items taken in `order`; the items it did not reach by
// the deadline are at kUnplaced (completion.h).
std::vector<Bytes> place(const Problem& problem, const Timeline& timeline,
                         std::span<const std::size_t> order, Placer placer, Deadline deadline);

}  // namespace tidepool::packing
