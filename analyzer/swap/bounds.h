// The two bounds printed beside every swap result (docs/swap.md explains them):
//  - the floor: the peak if transfers were free. At each op, every buffer that is idle across it
//    (between two of its accesses, cyclically for persistent buffers, and not never_swapped)
//    could be away; what is left is what that op needs plus what is never idle.
//  - the link bound: the lowest peak the link allows within the allowed time. At each op the
//    bytes away are at most the idle bytes, and at most what the device-to-host engine can move
//    out from the earliest of those gaps' starts up to the op (bytes clean on the host leave for
//    free), and what the host-to-device engine can bring back from the op up to the latest of
//    those gaps' ends, each window stretched by the allowed slowdown and capped at one period.
// Both ignore copy latency and the 2 MiB rounding, so no plan can beat them.
#pragma once

#include "analyzer/swap/link.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/simulator.h"

namespace tidepool::swap {

struct Bounds {
  Bytes floor_bytes = 0;
  Bytes link_bound_bytes = 0;
};

// `baseline` is the simulation without swaps; max_slowdown_pct >= 0.
Bounds compute_bounds(const Model& model, const Link& link, const Simulation& baseline,
                      double max_slowdown_pct);

}  // namespace tidepool::swap
