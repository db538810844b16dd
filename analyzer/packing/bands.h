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
// parts to join elsewhere, and if they never become few enough, it is guessed at with up to 20
// parts a side (kMaxGuessSide), and beyond that all its parts are one hole (coarser bands, still
// sound). What does not come apart (a block that is one part and has no time to cut at: a
// non-guillotine pattern, or holes guessed too coarse) is folded (item_merging.h, stacking with
// regard to holes: larger items, whose sums tell holes apart better) and split again, or goes to
// the tiling search. A block that none of these tiles (a wrong guess shows as one) is split again
// with other guesses (the parts in another order where sizes are ambiguous) and packed as low as
// those splits, the caller's block packer, the folds with their own blocks packed, or the search's
// completion get it; a block packed above its height raises only the bands stacked over it, in its
// own time range. So the attempt ends in a packing, at the lower bound when every block was tiled,
// and otherwise usually far closer to it than a packing of the whole instance at once: a block is
// smaller, and most of the instance lies in the bands around it.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// Packs a block that did not come apart (complete offsets from its base, as low as it can by
// `deadline`; the block may have slack when the holes were guessed wrongly). `tiling_tried`: the
// tiling search (and folds, while the fold depth allows) already failed on it, so the packer need
// not try again. Nothing is tried past the split's deadline; on blocks of over 50,000 items the
// search is not tried (they are only folded, and only when their time allows it). The blocks of
// the folds of such a large block come with `tiling_tried` false even where the search failed on
// them: the packer's own tilings (a merged tiling's completion) pack them far lower.
using BlockPacker = std::function<std::vector<Bytes>(const Problem& block, Deadline deadline, bool tiling_tried)>;

// A packing: at the lower bound when every block came apart or was tiled (or packed at its own
// height); else the blocks packed higher raise the bands stacked over them. None when the problem
// has slack (tiling_search.h: has_no_slack), when a problem of over 50,000 items had no fold
// packed in time and its split left it whole (packing it whole is the caller's own job), or, with
// alignments, when bands stacked at sums of sizes are misaligned (the checker's verdict).
// `timeline` is the problem's, and took `timeline_seconds` to build (folds of more than 50,000
// items begin only with time for them, counted in timeline builds).
// A problem of over 50,000 items is first folded whole, and its folds tiled or packed, up to `apart`;
// it is split only when none was. Splitting stops at `deadline`; the rest of the time is shared
// among the blocks left, up to `apart` (at or after `deadline`) when the split came apart: a caller
// that keeps time back for what it runs when nothing does gives it to the blocks then.
std::optional<std::vector<Bytes>> tile_by_bands(const Problem& problem, const Timeline& timeline,
                                                double timeline_seconds, Deadline deadline, Deadline apart,
                                                const BlockPacker& pack_block);

}  // namespace tidepool::packing
