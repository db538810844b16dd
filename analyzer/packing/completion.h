// The last resort of the anytime solvers: a placement rule stopped at its deadline leaves the
// items it did not reach at kUnplaced, and complete_above gives them offsets above everything
// placed, by the online best-fit allocator (heuristics.h) run over them alone from that height.
// It costs O(items log items) and always finishes quickly; the height is the partial packing's
// plus what online best-fit needs for the rest (about 2x their lower bound on generated instances).
#pragma once

#include <vector>

#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// The offset of an item that a placement rule stopped (at its deadline) before placing.
inline constexpr Bytes kUnplaced = -1;

// Whether every item has an offset.
bool is_complete(const std::vector<Bytes>& offsets);

// Gives every item at kUnplaced an offset; the placed items stay where they are.
void complete_above(const Problem& problem, std::vector<Bytes>& offsets);

}  // namespace tidepool::packing
