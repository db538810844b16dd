// `best`: our anytime portfolio. In turn, until the lower bound is reached or the deadline passes:
//  0. for instances with no slack (every section full, one interval per item): the hole sweep
//     (hole_sweep.h; up to 200,000 items both passes with 10% of the time, above only the
//     whole-step pass with 60%, less the free-blocks pass's reserve); up to 200,000 items, tiling
//     by bands (bands.h, 90% of the time; the blocks that do not come apart get a portfolio of
//     their own, without bands); the tiling search (tiling_search.h) on the items merged
//     (item_merging.h), stacking all (30% of the time left), then, up to 50,000 items, stacking
//     within holes and unless holes differ (10% each, for coarse times); then, up to 200,000 items,
//     on the original items (60% of the time left); above 200,000 items, after the merged tiling,
//     bands with 90% of the time left (less the free-blocks pass's, unless their split came apart),
//     then the free-blocks pass;
//  1. greedy placements over several orders: the skyline (skyline_fit.h) first, the only one on
//     instances above 200,000 items, then lowest first, then gaps best/first fit (left out above
//     20 M time-overlapping pairs); a run starts only while the time left exceeds what the last
//     one took, and not after a costly run (50 ms or more) that found nothing lower; then the
//     online allocator's sweep over free blocks, largest first among items that start together,
//     then longest first among equal sizes;
//  2. for instances small enough, the exact search (exact_search.h) at doubling node budgets: at
//     each budget it tries the lowest capacity not proven infeasible (the lower bound, first),
//     then capacities below the best height found (a sixteenth of the gap to the bound at a
//     time, the step halving down to one grain, the gcd of the sizes, when nothing is found),
//     each with minimalloc's three preorders. It gets 90% of the time left;
//  3. then (or at once, for instances too large for the exact search) local search over the
//     order of the best packing so far (local_search.h), until it stalls, if one pass of the
//     placement that found it fits in the time left.
// On an instance with no slack of up to 200,000 items and 4,000,000 time-overlapping pairs, all of
// this has 40% of the time; when its packing is above the bound, the search over overlaps
// (overlap_search.h) lowers it with the other 60%, one search per core of its share (up to two)
// with seeds of their own, the lowest kept.
// Up to 200,000 items, on two cores or more, and with a deadline, two such portfolios run at once,
// on the items as given and on them shuffled, with half the cores each (a share per thread:
// CoreShare in cores.h), and the lower packing is kept: where a portfolio ends turns on the order
// of the items. Both stop as soon as one packs the bound (a stop flag per thread:
// StopDeadlinesWhen in deadline.h). The cores are the caller's thread's share, where it has one.
// The first greedy packing is always completed, even past the deadline.
#pragma once

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

Solution solve_best(const Problem& problem, Deadline deadline);

}  // namespace tidepool::packing
