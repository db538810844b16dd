// Packing an instance with no slack by its holes, swept in time. At every time, the items that
// end leave holes that the items that start fill exactly (holes.h); each hole's ending items lie
// next to each other, and its starting items take their place in some order. A PQ-tree over the
// items live (pq_tree.h) keeps every order of them in address that the holes so far allow, so a
// choice is never made before a later hole forces it; at the end, the offsets follow from one
// order of the last items, back in time. Two passes: each time's holes guessed from sizes (sizes
// of many distinct values tell them: a program's memory refilled as it is freed, refill:N:SEED),
// where the tree refuses a hole guessed again at that time or at the times where the refused
// hole's items started (step_search.h: a search of a time's holes with the tree); then every
// time one hole (whole_step_sweep.h: pieces cut or grown at times of their own, whatever their
// sizes). Each is the optimum in about O(items x live items) where it holds; where neither
// holds, or the packing is not valid, there is none.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// The passes of the sweep: every time one hole (whole_step_sweep.h), then, where the tree refuses
// that, each time's holes guessed from sizes; or the first alone.
enum class SweepPasses { whole_steps, all };

// Offsets at the lower bound, valid by the checker, or none: a hole was guessed wrong, or the
// deadline passed. The problem must satisfy has_no_slack (tiling_search.h); `timeline` is its.
std::optional<std::vector<Bytes>> sweep_holes(const Problem& problem, const Timeline& timeline,
                                              Deadline deadline,
                                              SweepPasses passes = SweepPasses::all);

}  // namespace tidepool::packing
