// Skyline placement by time-gap fitting, for large instances and for packings with no slack: the
// floors of the sections form a skyline; its lowest segment (leftmost among equals) is filled
// from its left end, each time with an unplaced item that starts exactly there and ends inside
// the segment (the one that reaches furthest right; ties by a given rank). When no item starts at
// the left end, the run of sections up to the next item start cannot hold anything at that level
// and is raised to its left neighbour (the lowest level where an item live there can go).
// An item with several intervals is fitted by its hull and raises the floors of its intervals.
// Every placement is valid; O((items + sections) log items). At the deadline it stops, and the
// items not yet placed are left at kUnplaced (completion.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// rank[i] breaks ties between items with the same start and end (smaller first).
std::vector<Bytes> place_skyline(const Problem& problem, const Timeline& timeline,
                                 std::span<const std::uint32_t> rank, Deadline deadline);

}  // namespace tidepool::packing
