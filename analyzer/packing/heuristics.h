// The baseline heuristics, one file each. Each takes a valid problem and returns a valid solution.
// They are not anytime: at the deadline a pass stops and what it has not placed goes above the rest
// (completion.h), so that a time limit holds even on instances too large for them.
#pragma once

#include <span>
#include <vector>

#include "analyzer/packing/gap_fit.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// SmartPool (Zhang et al., arXiv 1903.06631): items by size descending (ties: earlier start),
// each into the best-fitting (or first-fitting) gap among the merged address ranges of the
// placed items it shares time with.
Solution solve_smartpool(const Problem& problem, Fit fit, Deadline deadline);

// TensorFlow Lite's greedy by size: items by size descending (ties: input order), each into the
// smallest gap between the placed items it shares time with that holds it, else on top.
Solution solve_tflite_greedy_size(const Problem& problem, Deadline deadline);

// XLA's global decreasing-size best-fit heap, run over its spatial order (size, then live length),
// its temporal order (live length, then size) and by area; the lowest result is kept.
Solution solve_xla_heap(const Problem& problem, Deadline deadline);

// An online best-fit allocator with coalescing of free blocks (as a caching pool like CnMeM does):
// it sees allocations and frees in time order only, never the future. An item with several
// intervals is held from its first start to its last end (an online allocator cannot promise it
// the same address again).
Solution solve_online_bestfit(const Problem& problem);
// The same allocator for the items at kUnplaced (completion.h) only, in a pool whose addresses
// begin at `floor`: it gives them their offsets and leaves the others as they are.
void place_online_bestfit(const Problem& problem, Bytes floor, std::vector<Bytes>& offsets);
// The same allocator as a placement rule (Placer::free_blocks): items by start time, those that
// start together in `order`, each into the best-fitting free block at its start. An allocator
// that saw each time's allocations together and served the largest first, with `order` by size.
// What it did not reach by the deadline is at kUnplaced.
std::vector<Bytes> place_in_free_blocks(const Problem& problem, std::span<const std::size_t> order, Deadline deadline);

}  // namespace tidepool::packing
