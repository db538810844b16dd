// Target handling around the two planners. `paper` knows only a memory limit: for a slowdown
// target it is run at a ladder of limits with both of its schedulings, and the lowest simulated
// peak within the allowed time is kept. `best` also runs that portfolio and keeps whichever is
// lower, so it is never worse than `paper`; beside a pool (a static arena), the plan `best` makes
// without the arena in view competes as well.
#include "analyzer/swap/planner.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "analyzer/swap/best_planner.h"
#include "analyzer/swap/paper_planner.h"

namespace tidepool::swap {
namespace {

struct Candidate {
  std::vector<SwapOp> ops;
  Simulation sim;
};

double slowdown(const Simulation& sim, const Simulation& base) {
  return (sim.iteration_seconds / base.iteration_seconds - 1) * 100;
}

bool within(const Simulation& sim, const Simulation& base, double pct) {
  return slowdown(sim, base) <= pct + 1e-9;
}

// Keeps `next` when it is within the slowdown and lower (ties: faster).
void keep_better(Candidate& best, Candidate next, const Simulation& base, double pct) {
  if (!within(next.sim, base, pct)) return;
  if (next.sim.peak_bytes < best.sim.peak_bytes ||
      (next.sim.peak_bytes == best.sim.peak_bytes && next.sim.iteration_seconds < best.sim.iteration_seconds))
    best = std::move(next);
}

// Simulates `ops`; with `pct`, only as far as it takes to see that they are slower than that.
Candidate run(const Model& model, const Link& link, Placement placement, std::vector<SwapOp> ops,
              const Simulation* base = nullptr, double pct = 0) {
  const double give_up = base ? base->iteration_seconds * (1 + (pct + 1e-6) / 100) : std::numeric_limits<double>::infinity();
  Simulation sim = simulate(model, ops, link, placement, give_up);
  return {std::move(ops), std::move(sim)};
}

// The paper's planner over a ladder of limits from the floor to the peak, both schedulings.
Candidate paper_for_slowdown(const Model& model, const Link& link, Placement placement, const Simulation& base,
                             const Bounds& bounds, double pct) {
  Candidate best{{}, base};
  // Fewer limits on very long iterations, to keep planning near a second.
  const int kSteps = model.ops.size() > 20000 ? 3 : 24;
  const double low = static_cast<double>(bounds.floor_bytes), high = static_cast<double>(base.peak_bytes);
  PaperPlanner paper(model, link, base);
  for (int i = 0; i < kSteps; ++i) {
    const auto limit = static_cast<Bytes>(low + (high - low) * i / kSteps);
    for (PaperScheduling s : {PaperScheduling::no_overhead, PaperScheduling::stick_to_limit})
      keep_better(best, run(model, link, placement, paper.plan(limit, s), &base, pct), base, pct);
  }
  return best;
}

// The least slowdown (of a ladder) at which `best` reaches the budget; else its lowest peak.
Candidate best_for_budget(const Model& model, const Link& link, Placement placement, const Simulation& base,
                          Bytes budget) {
  Candidate lowest{{}, base};
  for (double pct : {0.0, 1.0, 2.0, 5.0, 10.0, 25.0, 50.0, 100.0, 1000.0}) {
    Candidate c = run(model, link, placement, best_plan(model, link, base, pct, placement, budget));
    if (c.sim.peak_bytes <= budget) return c;
    if (c.sim.peak_bytes < lowest.sim.peak_bytes) lowest = std::move(c);
  }
  return lowest;
}

}  // namespace

Planner parse_planner(std::string_view name) {
  if (name == "paper") return Planner::paper;
  if (name == "best") return Planner::best;
  throw std::invalid_argument("unknown swap planner '" + std::string(name) + "': use paper or best");
}

std::string_view to_string(Planner planner) { return planner == Planner::paper ? "paper" : "best"; }

Result plan(const Model& model, const Target& target, Planner planner, const Link& link) {
  validate(model);
  if (!(target.max_slowdown_pct >= 0) || !std::isfinite(target.max_slowdown_pct))
    throw std::invalid_argument("the allowed slowdown must be a percentage >= 0");
  Result result;
  const Placement placement = target.placement;
  result.baseline = simulate(model, {}, link, placement);
  const Simulation& base = result.baseline;
  Candidate chosen{{}, base};
  if (target.budget) {
    if (planner == Planner::paper) {
      chosen = run(model, link, placement, paper_plan(model, link, base, *target.budget, PaperScheduling::stick_to_limit));
    } else {
      chosen = best_for_budget(model, link, placement, base, *target.budget);
      Candidate paper =
          run(model, link, placement, paper_plan(model, link, base, *target.budget, PaperScheduling::stick_to_limit));
      if (paper.sim.peak_bytes <= *target.budget && (chosen.sim.peak_bytes > *target.budget ||
                                                     paper.sim.iteration_seconds < chosen.sim.iteration_seconds))
        chosen = std::move(paper);
    }
    result.target_met = chosen.sim.peak_bytes <= *target.budget;
    result.bounds = compute_bounds(model, link, base, std::max(0.0, slowdown(chosen.sim, base)));
  } else {
    result.bounds = compute_bounds(model, link, base, target.max_slowdown_pct);
    chosen = paper_for_slowdown(model, link, placement, base, result.bounds, target.max_slowdown_pct);
    if (planner == Planner::best) {
      keep_better(chosen,
                  run(model, link, placement, best_plan(model, link, base, target.max_slowdown_pct, placement), &base,
                      target.max_slowdown_pct),
                  base, target.max_slowdown_pct);
      // Beside a pool, the plan made without the arena in view competes too.
      if (placement == Placement::static_arena)
        keep_better(chosen,
                    run(model, link, placement,
                        best_plan(model, link, simulate(model, {}, link), target.max_slowdown_pct), &base,
                        target.max_slowdown_pct),
                    base, target.max_slowdown_pct);
    }
    result.target_met = within(chosen.sim, base, target.max_slowdown_pct);
  }
  result.ops = std::move(chosen.ops);
  result.simulated = std::move(chosen.sim);
  return result;
}

}  // namespace tidepool::swap
