// Greedy placement into gaps: items are taken in a given order, and each goes into a gap between
// the address ranges of the already placed items it shares time with (merged), or on top of them
// all. Best fit takes the smallest gap that holds the item (ties: the lowest), first fit the
// lowest. This is the placement step of SmartPool, TFLite's greedy by size and XLA's heap.
// At the deadline it stops, and the items not yet placed are left at kUnplaced (completion.h).
#pragma once

#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/orders.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

enum class Fit { best, first };

// `order` is a permutation of the item indices. Returns the offset of each item.
std::vector<Bytes> place_in_gaps(const Problem& problem, const Timeline& timeline,
                                 std::span<const std::size_t> order, Fit fit, Deadline deadline);

// The baselines' whole run: one gap pass per order key, the lowest packing kept. The first pass
// stops early enough at the deadline that what it did not reach can be placed above it
// (completion.h); a later pass the deadline cuts is dropped.
Solution solve_by_gap_passes(const Problem& problem, std::span<const OrderKey> keys, Fit fit, Deadline deadline);

}  // namespace tidepool::packing
