// The `best` planner: repeatedly attacks the simulated peak. At each round it takes the gaps that
// cover the op at the peak, estimates when each could be out (after its access, behind the copies
// already queued on the device-to-host engine) and when it must come back (as late as the
// host-to-device engine allows before its next access), and adds the largest ones that fit, then
// re-simulates: a round is kept only if the peak drops (or moves) within the allowed time, so
// the simulator, not the estimate, decides. Each phase stops after a number of rounds that bounds its
// work (only long iterations reach it), with what it has. With an allowed slowdown, a swap-out that cannot
// finish before the peak may make the peak op wait for it, and a swap-in may end late.
#pragma once

#include <optional>
#include <vector>

#include "analyzer/swap/link.h"
#include "analyzer/swap/model.h"
#include "analyzer/swap/simulator.h"
#include "analyzer/swap/swap_op.h"

namespace tidepool::swap {

inline constexpr Bytes kBestSmallestBlock = Bytes{1} << 20;

// Lowers the peak (as simulated with `placement`) as far as it can within max_slowdown_pct of the
// baseline's iteration time; stops early once the peak is at or below `stop_at` when given. With a
// static arena, the peak has two parts: the arena (lowered by moving buffers out of it: swaps of
// the gaps over its highest op) and what lives outside it (lowered by swaps of the gaps of
// persistent and already swapped buffers over the peak); on iterations up to 20k ops it then plans
// again without each buffer its plan moves, while that lowers the peak (a bounded amount of work).
std::vector<SwapOp> best_plan(const Model& model, const Link& link, const Simulation& baseline,
                              double max_slowdown_pct, Placement placement = Placement::own_allocations,
                              std::optional<Bytes> stop_at = std::nullopt);

}  // namespace tidepool::swap
