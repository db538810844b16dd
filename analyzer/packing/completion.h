// The last resort of the anytime solvers: a placement rule stopped at its deadline leaves the
// items it did not reach at kUnplaced, and complete_above gives them offsets above everything
// placed, by the online best-fit allocator (heuristics.h) run over them alone from that height.
// It costs O(items log items) and always finishes quickly; the height is the partial packing's
// plus what online best-fit needs for the rest (about 2x their lower bound on generated instances).
#pragma once

#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// The offset of an item that a placement rule stopped (at its deadline) before placing.
inline constexpr Bytes kUnplaced = -1;

// Whether every item has an offset.
bool is_complete(const std::vector<Bytes>& offsets);

// Gives every item at kUnplaced an offset; the placed items stay where they are.
void complete_above(const Problem& problem, std::vector<Bytes>& offsets);

// `offsets` as a solution, completed above first if a pass left items unplaced.
Solution completed(const Problem& problem, std::vector<Bytes> offsets);

// The deadline of a placement pass that must end in a complete packing: `deadline`, less a reserve
// for each item the pass has not reached, so that complete_above fits too: 10 x what building the
// timeline took per item (`timeline_seconds`; both sort interval ends, and the completion also
// keeps ordered maps of free blocks), which follows the machine's load.
Deadline reserving_for_completion(Deadline deadline, double timeline_seconds, std::size_t items);

}  // namespace tidepool::packing
