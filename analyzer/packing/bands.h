// Tiling an instance with no slack top-down, along the cuts its holes imply. In a packing with no
// slack, the items that start at a time fill exactly the room that the items ending there leave,
// hole by hole (holes.h). Link every item to the holes it ends and starts in, within a time range
// [t0, t1) (the holes at t0 and t1 left out): the items of one connected part then occupy the
// same addresses at every time in the range (a hole's starting items take its ending items'
// place), and those addresses form one interval (a hole cannot reach across addresses that others
// hold throughout). So each part is a band of constant height over the whole range, and bands
// stack in any order. A band is cut in time wherever none of its items is live across a time, and
// each piece is split into bands again. An instance cut from a rectangle by guillotine cuts comes
// apart this way down to single items, in O(items x depth of the cuts), however coarse its times,
// if the holes are known.
// They are guessed from sizes (holes.h, the groups found first where that is ambiguous), between
// the parts found so far rather than single items; a time with too many parts to tell waits for
// parts to join elsewhere, and if they never become few enough, all its parts are one hole (coarser
// bands, still sound). What does not come apart (a block that is one part and has no time to cut
// at: a non-guillotine pattern, or holes guessed too coarse) is folded (item_merging.h, stacking
// with regard to holes: larger items, whose sums tell holes apart better) and split again, or goes
// to the tiling search. A wrong guess shows as a block that nothing tiles, and the attempt fails:
// what it returns is always a packing at the lower bound.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// A packing at the lower bound, or none when the attempt failed (a block was not tiled by
// `deadline`, or the holes guessed made bands that do not fit) or the problem has slack
// (tiling_search.h: has_no_slack). `timeline` is the problem's.
std::optional<std::vector<Bytes>> tile_by_bands(const Problem& problem, const Timeline& timeline, Deadline deadline);

}  // namespace tidepool::packing
