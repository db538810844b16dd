// The hole sweep's first pass (hole_sweep.h): every step one hole, all its ending items next to
// each other in address and its starting items in their place. Where an instance's pieces were cut
// or grown at times of their own (perfect:N:SEED, grown:N:SEED), every time has one hole but where
// two cuts meet by chance, so no hole is guessed from sizes: however many items share a size, the
// PQ-tree alone orders them. Where the tree refuses a step, the step's other holes, fewest first:
// its splits into two holes whose sizes add up, then its guesses by sizes (hole_guesses.h) merged
// as far as may be; the one with which the tree takes the most steps whole after it. Where that
// leads nowhere, the next choice at the refusals before. Internal to the packing library.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/packing/deadline.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/sweep_steps.h"
#include "analyzer/packing/timeline.h"

namespace tidepool::packing {

// Offsets at the lower bound, valid by the checker, or none: too many steps refused whole (holes
// that meet more than by chance), a refusal not mended, or the deadline passed.
std::optional<std::vector<Bytes>> sweep_whole_steps(const Problem& problem,
                                                    const Timeline& timeline, const Steps& steps,
                                                    Deadline deadline);

}  // namespace tidepool::packing
