// Settling a packing: its items let fall, down and up in turn, into gaps that others leave. Down,
// the items are taken in the order of their offsets and each goes into the lowest gap that holds it
// (first fit, gap_fit.h); that never raises an item, since the items placed before it are at or
// below where they were and its own place is still free. Up is the same in the packing turned
// upside down: items rise into gaps above them, which opens gaps below for the next fall. A packing
// made of parts (bands.h: bands stacked over a block packed above its own height) has gaps wherever
// a part is lower than its peak; settling fills them (cut instances of 10,000 items on coarse
// times: 1.1188x -> 1.0853x, 1.2126x -> 1.1792x in five rounds).
#pragma once

#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

struct Settled {
  std::vector<Bytes> offsets;
  double fall_seconds = 0;  // what the first fall took: a pass of first fit over all items
};

// The lowest packing found by rounds of a fall and a rise from `offsets` (complete and valid),
// until a round lowers nothing or the deadline; never higher than `offsets`.
Settled settle(const Problem& problem, const Timeline& timeline, std::vector<Bytes> offsets,
               Deadline deadline);

// The items in the order of their offsets (ties: by index): an order that first fit places at or
// below those offsets.
std::vector<std::size_t> order_by_offset(const std::vector<Bytes>& offsets);

}  // namespace tidepool::packing
