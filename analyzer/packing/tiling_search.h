// A search for packings with no slack at all (height == lower bound, every section full), such as
// instances cut from a full rectangle. In such a packing, if the skyline's lowest run [a, b) at
// floor h has higher neighbours, the item covering (a, h) starts exactly at a, ends by b and lies
// at offset h; so a depth-first search over the skyline (tiling_skyline.h) that only tries those
// items has a tiny branching factor. It prunes a state when, around the run just changed, a run
// with a higher left neighbour has no unplaced item starting where it begins, one with a higher
// right neighbour none ending where it ends, or a valley no chain of unplaced items that tiles it
// in time at its floor (this check is what keeps the search from going wrong early): a search
// backwards from the valley's right end first (it settles most valleys no chain can finish), then
// forwards from its left end, both depth-first over sections, longest items first, giving up
// optimistically after 2,000 and 30,000 item visits; the sections a failed forward search reached
// are remembered as dead ends for the next search to the same end at the same floor. Items equal
// in start, end, size and alignment are tried once per node, and items of one interval stacked
// directly one on another (which can swap) in one order only.
// A search that went wrong early rarely recovers, so it restarts with a doubled node budget (from
// 2,000) and the shapes of each start in a new random order (deterministic for the instance); from
// 50,000 items on it restarts locally instead, from a checkpoint behind the deepest point reached
// (further back, exponentially, when it stays stuck).
// When no packing is found within the node budget or the deadline, the deepest partial packing is
// completed greedily (the same rule, picking the first item that passes the checks, and raising
// what nothing can fill as skyline_fit.h does) until the deadline, and what is left then is
// placed above it (completion.h), so there is always an answer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// Whether the tiling search applies: every item has one interval and every section's total is
// the lower bound.
bool has_no_slack(const Problem& problem, const Timeline& timeline);

struct TilingResult {
  std::vector<Bytes> offsets;  // a complete packing
  bool perfect = false;        // found by the search: height == lower bound
  std::int64_t nodes = 0;
};

// The node budget callers give the search per item: enough for the instances it solves (cut
// instances of up to 200,000 items), small enough to leave time to the rest when it fails.
inline constexpr std::int64_t kTilingNodesPerItem = 1000;

// From this many items on, the search restarts locally rather than from scratch.
inline constexpr std::size_t kTilingLocalRestartsFrom = 50'000;

// The problem must satisfy has_no_slack. The search stops at `node_budget` placements or at
// `search_deadline`; the completion at `deadline`, and then what is left is placed above.
// Instances of `local_restarts_from` items or more restart locally.
TilingResult search_tiling(const Problem& problem, const Timeline& timeline, std::int64_t node_budget,
                           Deadline search_deadline, Deadline deadline,
                           std::size_t local_restarts_from = kTilingLocalRestartsFrom);

}  // namespace tidepool::packing
