// The `best` planner (see best_planner.h).
#include "analyzer/swap/best_planner.h"

#include <algorithm>
#include <cmath>

namespace tidepool::swap {
namespace {

struct Pick {
  std::size_t gap;
  SwapOp op;
  double score;
};

class BestPlanner {
 public:
  BestPlanner(const Model& model, const Link& link, const Simulation& baseline, double max_slowdown_pct)
      : model_(model), link_(link), n_(static_cast<std::uint32_t>(model.ops.size())),
        gaps_(swappable_gaps(model, kBestSmallestBlock)),
        allowed_(baseline.iteration_seconds * (1 + max_slowdown_pct / 100) + 1e-12),
        used_(gaps_.size(), false), tabu_(gaps_.size(), false) {
    for (const Gap& g : gaps_) always_clean_.push_back(always_clean(model.buffers[g.buffer]));
  }

  std::vector<SwapOp> run(Simulation sim, std::optional<Bytes> stop_at) {
    std::vector<SwapOp> plan;
    std::size_t batch = 1;
    while (!stop_at || sim.peak_bytes > *stop_at) {
      std::vector<Pick> picks = candidates(sim, plan);
      if (picks.empty()) break;
      std::sort(picks.begin(), picks.end(), [](const Pick& a, const Pick& b) { return a.score > b.score; });
      picks.resize(std::min(picks.size(), batch));
      std::vector<SwapOp> trial = plan;
      for (const Pick& p : picks) trial.push_back(p.op);
      mark_clean_swap_outs(model_, trial);
      Simulation next = simulate(model_, trial, link_);
      const bool better = next.peak_bytes < sim.peak_bytes ||
                          (next.peak_bytes == sim.peak_bytes && next.peak_time != sim.peak_time);
      if (next.iteration_seconds <= allowed_ && better) {
        for (const Pick& p : picks) used_[p.gap] = true;
        plan = std::move(trial);
        sim = std::move(next);
        batch = std::min<std::size_t>(batch * 2, 32);
      } else if (batch > 1) {
        batch = 1;
      } else {
        tabu_[picks.front().gap] = true;
      }
    }
    return plan;
  }

 private:
  static bool always_clean(const Buffer& b) {
    return b.persistent && std::none_of(b.accesses.begin(), b.accesses.end(),
                                        [](const Access& a) { return a.write || a.by_kernel; });
  }

  // Per op, the latest end of the copies queued before a copy issued there (FIFO engines).
  void backlogs(const Simulation& sim, const std::vector<SwapOp>& plan) {
    out_backlog_.assign(n_, 0);
    in_backlog_.assign(n_, 0);
    const double period = sim.iteration_seconds;
    for (std::size_t s = 0; s < plan.size(); ++s) {
      const SwapTiming& x = sim.swaps[s];
      if (plan[s].copy_out) out_backlog_[plan[s].out_after] = std::max(out_backlog_[plan[s].out_after], x.out_end);
      const bool wraps = plan[s].in_at <= plan[s].out_after;
      const double in_end = wraps ? x.in_end - period : x.in_end;
      if (std::isfinite(in_end)) in_backlog_[plan[s].in_at] = std::max(in_backlog_[plan[s].in_at], in_end);
    }
    for (std::uint32_t i = 1; i < n_; ++i) {
      out_backlog_[i] = std::max(out_backlog_[i], out_backlog_[i - 1]);
      in_backlog_[i] = std::max(in_backlog_[i], in_backlog_[i - 1]);
    }
  }

  std::vector<Pick> candidates(const Simulation& sim, const std::vector<SwapOp>& plan) {
    backlogs(sim, plan);
    const double period = sim.iteration_seconds, slack = std::max(0.0, allowed_ - sim.iteration_seconds);
    const double tau = sim.peak_time;
    std::uint32_t p = 0;  // the op that starts at the peak (or the first one running after it)
    for (std::uint32_t i = 0; i < n_; ++i)
      if (sim.op_start[i] >= tau - 1e-12 && (sim.op_start[p] < tau - 1e-12 || sim.op_start[i] < sim.op_start[p])) p = i;
    // Unrolled time of op x seen from p: wrapping positions belong to the previous/next iteration.
    auto end_before = [&](std::uint32_t x) { return sim.op_end[x] - (x > p ? period : 0); };
    auto start_after = [&](std::uint32_t x) { return sim.op_start[x] + (x < p ? period : 0); };
    auto backlog_before = [&](const std::vector<double>& b, std::uint32_t x) { return b[x] - (x > p ? period : 0); };
    auto backlog_after = [&](const std::vector<double>& b, std::uint32_t x) { return b[x] + (x < p ? period : 0); };
    std::vector<Pick> picks;
    for (std::size_t g = 0; g < gaps_.size(); ++g) {
      if (used_[g] || tabu_[g]) continue;
      const Gap& gap = gaps_[g];
      const std::uint32_t length = cyclic_steps(gap.after, gap.before, n_);
      if (cyclic_steps(gap.after, p, n_) >= length) continue;  // p not strictly inside
      const Bytes size = model_.buffers[gap.buffer].size;
      const double copy = link_.copy_seconds(size);
      double released = end_before(gap.after) + link_.unmap_seconds;
      if (!always_clean_[g]) released = std::max(released - link_.unmap_seconds, backlog_before(out_backlog_, gap.after)) + copy + link_.unmap_seconds;
      SwapOp op{gap.buffer, gap.after, gap.before, gap.before, true, std::nullopt};
      if (released > tau) {
        if (released > tau + slack) continue;
        op.release_before = p;
      }
      // The latest issue op after p whose copy back ends by the next access (plus any slack).
      const double deadline = start_after(gap.before) + slack;
      std::uint32_t j = gap.before;
      bool found = false;
      for (int tries = 0; tries < 256 && j != p; ++tries) {
        const double issue = start_after(j);
        const double done = std::max(issue + link_.map_seconds, backlog_after(in_backlog_, j)) + copy;
        if (done <= deadline && issue >= tau) { found = true; break; }
        if (issue < tau) break;
        j = (j + n_ - 1) % n_;
      }
      if (!found) continue;
      op.in_at = j;
      const double spare = std::min(tau - released + slack, deadline - start_after(j));
      picks.push_back({g, op, static_cast<double>(size) * (1 + std::max(0.0, spare) / period)});
    }
    return picks;
  }

  const Model& model_;
  const Link& link_;
  std::uint32_t n_;
  std::vector<Gap> gaps_;
  double allowed_;
  std::vector<bool> used_, tabu_, always_clean_;
  std::vector<double> out_backlog_, in_backlog_;
};

}  // namespace

std::vector<SwapOp> best_plan(const Model& model, const Link& link, const Simulation& baseline,
                              double max_slowdown_pct, std::optional<Bytes> stop_at) {
  return BestPlanner(model, link, baseline, max_slowdown_pct).run(baseline, stop_at);
}

}  // namespace tidepool::swap
