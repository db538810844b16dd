// Lowering a packing by guided local search over overlaps (after Egeblad, Nielsen and Odgaard's
// translation moves for strip packing, with pair weights in the manner of Umetani et al.).
//
// From a valid packing, the height is taken a step lower: the band of rows that items fill least
// (live time x rows; ties drawn at random) is removed (items above it move down, items that no
// longer fit are clamped under the new height), which leaves some items overlapping. Then, one item at a time, an overlapping item moves to the
// aligned offset under the height that minimizes its weighted overlap with the items live at the
// same time (pair weight x common live time x common bytes: a piecewise linear function of the
// offset, minimized exactly by a sweep over its breakpoints). At a local minimum, every pair that
// still overlaps weighs more, in proportion to its overlap, which pushes the search out of it.
// When no two items overlap, that height is packed, and the next step lower is tried; a height
// that is not packed within a budget of local minima is tried again from the last packing, with
// a band half as high (down to one grain). The weights are kept throughout: what overlapped at
// one height tends to at the next (reset at each height, the mean height over the bound on nine
// cut instances was 1.0671 instead of 1.0622; a random band instead of the emptiest, 1.0671).
//
// Searches in time order commit to choices whose errors show late; this search repairs a whole
// packing at once instead, which lowers the cut instances on coarse times that the sweep and bands
// leave above the bound (docs/packing.md, session 27).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"

namespace tidepool::packing {

// The most time-overlapping pairs (ExactSearch::overlap_pairs) of an instance the search is for:
// it keeps two 24-byte entries per pair, and the caller keeps to this.
inline constexpr std::int64_t kOverlapSearchMaxPairs = 4'000'000;

// A packing of `problem` lower than `offsets` (a valid packing), the lowest found before the
// deadline, at `target` (no lower is looked for) or when the search gives up (100 attempts in a
// row fail at one height), or nothing if none was found. Deterministic for a seed, but for where
// the deadline stops it. The problem must be valid and normalized.
std::optional<std::vector<Bytes>> lower_by_overlaps(const Problem& problem, std::span<const Bytes> offsets,
                                                    Bytes target, Deadline deadline, std::uint64_t seed);

// The same search once per seed, all at once, each on a thread of its own (the first on the
// caller's), and the lowest packing any of them found: a search's course turns on its seed (from
// one packing of c-2000-11, four seeds ended 1.039-1.055 times the bound). All stop as soon as one
// packs `target`. Each keeps its own pairs, so memory grows with the seeds. A seed whose thread
// cannot start is left out; an error of a search (std::bad_alloc) propagates as from one search.
std::optional<std::vector<Bytes>> lower_by_overlaps_concurrently(
    const Problem& problem, std::span<const Bytes> offsets, Bytes target, Deadline deadline,
    std::span<const std::uint64_t> seeds);

}  // namespace tidepool::packing
