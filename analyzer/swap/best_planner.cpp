// The `best` planner (see best_planner.h).
#include "analyzer/swap/best_planner.h"

#include <algorithm>
#include <cmath>

namespace tidepool::swap {
namespace {

// Consecutive rejected candidates after which the peak is taken as final.
constexpr std::size_t kMaxMisses = 48;
// Each phase is anytime: it returns the lowest plan found so far after a number of rounds (each
// one simulation) that keeps it near a fixed amount of work, deterministically: it only binds on
// very long iterations (10 rounds at ~100k launches).
constexpr std::size_t kPhaseOpRounds = 1'000'000;
constexpr std::size_t kMinPhaseRounds = 8;
// Beside an arena, iterations up to this many ops are planned again without each moved buffer,
// for at most this many simulated ops (simulations x ops) in all.
constexpr std::size_t kRestartOps = 20'000;
constexpr std::size_t kRestartOpSimulations = 4'000'000;

struct Pick {
  std::size_t gap;
  SwapOp op;
  double score;
};

class BestPlanner {
 public:
  BestPlanner(const Model& model, const Link& link, const Simulation& baseline, Placement placement,
              const std::vector<bool>& forbidden)
      : model_(model), link_(link), placement_(placement), forbidden_(forbidden), n_(static_cast<std::uint32_t>(model.ops.size())),
        gaps_(swappable_gaps(model, kBestSmallestBlock)), baseline_seconds_(baseline.iteration_seconds),
        used_(gaps_.size(), false), tabu_(gaps_.size(), false), swapped_(model.buffers.size(), false),
        max_batch_(std::max<std::size_t>(32, gaps_.size() / 64)) {
    for (const Gap& g : gaps_) {
      always_clean_.push_back(always_clean(model.buffers[g.buffer]));
      gap_length_.push_back(cyclic_steps(g.after, g.before, n_));
    }
    for (std::uint32_t i = 0; i < n_; ++i)
      if (model.ops[i].engine != Engine::compute) program_copies_.push_back(i);
  }

  // Adds swaps to `plan` (simulated as `sim`) while the peak drops within max_slowdown_pct.
  void run(std::vector<SwapOp>& plan, Simulation& sim, double max_slowdown_pct, std::optional<Bytes> stop_at) {
    allowed_ = baseline_seconds_ * (1 + max_slowdown_pct / 100) + 1e-12;
    std::fill(tabu_.begin(), tabu_.end(), false);
    std::size_t batch = 1, misses = 0;
    const std::size_t rounds = std::max(kMinPhaseRounds, kPhaseOpRounds / n_);
    for (std::size_t round = 0; round < rounds && (!stop_at || sim.peak_bytes > *stop_at) && misses < kMaxMisses;
         ++round) {
      std::vector<Pick> picks = candidates(sim, plan);
      if (picks.empty()) break;
      std::sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) { return a.score > b.score; });
      picks.resize(std::min(picks.size(), batch));
      std::vector<SwapOp> trial = plan;
      for (const Pick& p : picks) trial.push_back(p.op);
      mark_clean_swap_outs(model_, trial);
      Simulation next = simulate(model_, trial, link_, placement_, allowed_);  // slower ones are rejected
      ++simulations_;
      // At the same peak, a move of the peak (or, beside a pool, a lower arena: what lives outside
      // it can still be swapped) is progress.
      const bool better = next.peak_bytes < sim.peak_bytes ||
                          (next.peak_bytes == sim.peak_bytes &&
                           (next.peak_time != sim.peak_time || next.arena_bytes < sim.arena_bytes ||
                            next.arena_peak_op != sim.arena_peak_op));
      if (next.iteration_seconds <= allowed_ && better) {
        for (const Pick& p : picks) used_[p.gap] = true, swapped_[p.op.buffer] = true;
        plan = std::move(trial);
        sim = std::move(next);
        batch = std::min(batch * 2, max_batch_);
        misses = 0;
      } else if (batch > 1) {
        batch = 1;
      } else {
        tabu_[picks.front().gap] = true;
        ++misses;
      }
    }
  }

  std::size_t simulations() const { return simulations_; }

 private:
  static bool always_clean(const Buffer& b) {
    return b.persistent && std::none_of(b.accesses.begin(), b.accesses.end(),
                                        [](const Access& a) { return a.write || a.by_kernel; });
  }

  // An engine's queue as the candidates see it, in the reported iteration's time frame (a swap-in
  // that wraps belongs to the previous swap-out, one period earlier): the copies in issue order,
  // each with how long it may be delayed (a swap-in until its access, a swap-out until its
  // swap-in is issued), and per op the latest end of the copies issued up to there.
  struct Queue {
    struct Copy {
      std::uint32_t at;
      double start, end, slack;
    };
    std::vector<Copy> copies;
    std::vector<double> backlog;

    void reset(std::uint32_t n) {
      copies.clear();
      backlog.assign(n, -1e30);
    }
    void add(std::uint32_t at, double start, double end, double slack) {
      copies.push_back({at, start, end, slack});
      backlog[at] = std::max(backlog[at], end);
    }
    void finish() {
      std::stable_sort(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) { return a.at < b.at; });
      for (std::size_t i = 1; i < backlog.size(); ++i) backlog[i] = std::max(backlog[i], backlog[i - 1]);
    }
    // Whether a copy issued at `at` that ends at `end` delays the copies queued behind it no
    // more than each one's slack (plus allowance): the delay runs down the busy chain.
    bool fits(std::uint32_t at, double end, double allowance) const {
      auto it = std::upper_bound(copies.begin(), copies.end(), at,
                                 [](std::uint32_t a, const Copy& c) { return a < c.at; });
      for (double delay = it != copies.end() ? end - it->start : 0; delay > 0 && it != copies.end();) {
        if (delay > it->slack + allowance) return false;
        const double pushed_end = it->end + delay;
        if (++it != copies.end()) delay = pushed_end - it->start;
      }
      return true;
    }
  };

  void queues(const Simulation& sim, const std::vector<SwapOp>& plan, double tau) {
    out_.reset(n_);
    in_.reset(n_);
    const double period = sim.iteration_seconds;
    for (std::size_t s = 0; s < plan.size(); ++s) {
      const SwapOp& op = plan[s];
      const SwapTiming& x = sim.swaps[s];
      const double shift = op.in_at <= op.out_after ? period : 0;  // the swap-in wraps
      const double needed = sim.op_start[op.needed_by] + (op.needed_by < op.in_at ? period : 0);
      if (op.copy_out) {
        // A swap-out may slip until its swap-in is issued, and no further than the peak it covers
        // (this iteration's, or the next one's when it wraps).
        double slack = x.in_issue - x.release;
        for (double frame : {0.0, period})
          if (x.release - frame <= tau && x.in_issue - frame > tau) slack = std::min(slack, tau - (x.release - frame));
        out_.add(op.out_after, x.out_start, x.out_end, slack);
      }
      if (std::isfinite(x.in_end)) in_.add(op.in_at, x.in_start - shift, x.in_end - shift, needed - (x.in_end - shift));
    }
    // The program's own copies share the engines; delaying one delays the iteration.
    for (std::uint32_t i : program_copies_) {
      if (model_.ops[i].engine == Engine::device_to_host) out_.add(i, sim.op_start[i], sim.op_end[i], 0);
      if (model_.ops[i].engine == Engine::host_to_device) in_.add(i, sim.op_start[i], sim.op_end[i], 0);
    }
    out_.finish();
    in_.finish();
  }

  // The op that starts at `tau` (or the first one running after it).
  std::uint32_t op_at(const Simulation& sim, double tau) const {
    std::uint32_t p = 0;
    for (std::uint32_t i = 0; i < n_; ++i)
      if (sim.op_start[i] >= tau - 1e-12 && (sim.op_start[p] < tau - 1e-12 || sim.op_start[i] < sim.op_start[p])) p = i;
    return p;
  }

  // Whether a gap's buffer counts in the arena (static_arena: iteration buffers no swap moves yet).
  bool in_arena(const Gap& gap) const {
    return placement_ == Placement::static_arena && !model_.buffers[gap.buffer].persistent && !swapped_[gap.buffer];
  }

  std::vector<Pick> candidates(const Simulation& sim, const std::vector<SwapOp>& plan) {
    const double period = sim.iteration_seconds, slack = std::max(0.0, allowed_ - sim.iteration_seconds);
    queues(sim, plan, sim.peak_time);
    // The peak outside the arena, and the arena's highest op: each is attacked by its own buffers.
    const std::uint32_t peak_op = op_at(sim, sim.peak_time), arena_op = sim.arena_peak_op;
    std::vector<Pick> picks;
    for (std::size_t g = 0; g < gaps_.size(); ++g) {
      if (used_[g] || tabu_[g] || forbidden_[gaps_[g].buffer]) continue;
      const Gap& gap = gaps_[g];
      const bool arena = in_arena(gap);
      const std::uint32_t p = arena ? arena_op : peak_op;
      const double tau = arena ? sim.op_start[arena_op] : sim.peak_time;
      if (cyclic_steps(gap.after, p, n_) >= gap_length_[g]) continue;  // p not strictly inside
      const Bytes size = model_.buffers[gap.buffer].size;
      const double copy = link_.copy_seconds(size);
      // Swap-out, in the frame of its own op; seen from p, ops after p ran one period earlier.
      double out_end = sim.op_end[gap.after];
      if (!always_clean_[g]) {
        out_end = std::max(out_end, out_.backlog[gap.after]) + copy;
        if (!out_.fits(gap.after, out_end, slack)) continue;
      }
      const double released = out_end + link_.unmap_seconds - (gap.after > p ? period : 0);
      SwapOp op{gap.buffer, gap.after, gap.before, gap.before, true, std::nullopt};
      if (released > tau) {
        if (released > tau + slack) continue;
        op.release_before = p;
      }
      // Swap-in: the latest issue op after p whose copy ends by the next access (plus slack).
      bool found = false;
      double spare = 0;
      for (std::uint32_t j = gap.before, tries = 0; tries < 256 && j != p; ++tries, j = (j + n_ - 1) % n_) {
        const double issue = sim.op_start[j];
        if (issue + (j < p ? period : 0) < tau) break;
        const double deadline = sim.op_start[gap.before] + (gap.before < j ? period : 0) + slack;
        const double end = std::max(issue + link_.map_seconds, in_.backlog[j]) + copy;
        if (end <= deadline && in_.fits(j, end, slack)) {
          op.in_at = j;
          spare = std::min(tau - released + slack, deadline - end);
          found = true;
          break;
        }
      }
      if (!found) continue;
      picks.push_back({g, op, static_cast<double>(size) * (1 + std::max(0.0, spare) / period)});
    }
    return picks;
  }

  const Model& model_;
  const Link& link_;
  Placement placement_;
  const std::vector<bool>& forbidden_;  // per buffer: never swapped by this planner
  std::uint32_t n_;
  std::vector<Gap> gaps_;
  double baseline_seconds_, allowed_ = 0;
  std::vector<bool> used_, tabu_, swapped_, always_clean_;  // per gap, except swapped_: per buffer
  std::vector<std::uint32_t> gap_length_;                   // per gap, in ops
  std::vector<std::uint32_t> program_copies_;               // ops on a copy engine
  std::size_t simulations_ = 0;
  std::size_t max_batch_;
  Queue out_, in_;
};

struct Planned {
  std::vector<SwapOp> ops;
  Simulation sim;
  std::size_t simulations = 0;  // what it took
};

// First without any slowdown, then spending the allowed time on top of that plan.
Planned plan_once(const Model& model, const Link& link, const Simulation& baseline, double max_slowdown_pct,
                  Placement placement, std::optional<Bytes> stop_at, const std::vector<bool>& forbidden) {
  BestPlanner planner(model, link, baseline, placement, forbidden);
  Planned fast{{}, baseline};
  planner.run(fast.ops, fast.sim, 0, stop_at);
  fast.simulations = planner.simulations();
  if (max_slowdown_pct <= 0) return fast;
  Planned slower = fast;
  planner.run(slower.ops, slower.sim, max_slowdown_pct, stop_at);
  Planned& kept = slower.sim.peak_bytes < fast.sim.peak_bytes ? slower : fast;  // time spent only if it pays
  kept.simulations = planner.simulations();
  return std::move(kept);
}

}  // namespace

std::vector<SwapOp> best_plan(const Model& model, const Link& link, const Simulation& baseline,
                              double max_slowdown_pct, Placement placement, std::optional<Bytes> stop_at) {
  std::vector<bool> forbidden(model.buffers.size(), false);
  Planned best = plan_once(model, link, baseline, max_slowdown_pct, placement, stop_at, forbidden);
  if (placement != Placement::static_arena || model.ops.size() > kRestartOps) return std::move(best.ops);
  // Beside an arena the greedy choice of which buffers leave it is myopic: plan again without
  // each buffer the plan moves, keep the lowest, and go on from there while it improves (within a
  // fixed amount of simulation: deterministic).
  const std::size_t budget = kRestartOpSimulations / model.ops.size();
  std::size_t spent = 0;
  for (bool improved = true; improved && spent < budget;) {
    improved = false;
    std::vector<std::uint32_t> moved;
    for (const SwapOp& op : best.ops) moved.push_back(op.buffer);
    std::sort(moved.begin(), moved.end());
    moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
    std::optional<std::uint32_t> drop;
    for (std::size_t k = 0; k < moved.size() && spent < budget; ++k) {
      forbidden[moved[k]] = true;
      Planned other = plan_once(model, link, baseline, max_slowdown_pct, placement, stop_at, forbidden);
      forbidden[moved[k]] = false;
      spent += other.simulations;
      if (other.sim.peak_bytes < best.sim.peak_bytes) best = std::move(other), drop = moved[k];
    }
    if (drop) forbidden[*drop] = true, improved = true;
  }
  return std::move(best.ops);
}

}  // namespace tidepool::swap
