// Greedy placement lowest first, in the canonical form of minimalloc: each section has a floor
// (the highest end of the placed items in it); the next item placed is the unplaced one that can
// go lowest (at the highest floor of its sections, aligned), ties broken by a given rank. Offsets
// never decrease along the way, so every placement is valid; with the right ranks this reaches
// every packing in which no item can drop lower. At the deadline it stops, and the items not yet
// placed are left at kUnplaced (completion.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// rank[i] is item i's priority among items that can go equally low (smaller first). O(n log n).
std::vector<Bytes> place_lowest_first(const Problem& problem, const Timeline& timeline,
                                      std::span<const std::uint32_t> rank, Deadline deadline);

}  // namespace tidepool::packing
