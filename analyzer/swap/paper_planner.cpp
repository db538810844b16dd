// The paper's planner (see paper_planner.h). Op positions are "unrolled" around the peak op p:
// a gap that wraps the iteration boundary opens at a - n (before p) or closes at k + n (after p).
#include "analyzer/swap/paper_planner.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>

#include "analyzer/swap/range_max.h"

namespace tidepool::swap {
namespace {

struct Candidate {
  std::uint32_t buffer;
  long out, need;  // unrolled positions of the accesses around the peak: out < peak < need
  Bytes size;
  double doa_origin = 0, aoa = 0, wdoa = 0;
  long votes = 0;
  long out_end = 0, in_start = 0;  // scheduled sync / issue positions (unrolled)
};

}  // namespace

class PaperPlanner::State {
 public:
  State(const Model& model, const Link& link, const Simulation& baseline)
      : model_(model), link_(link), n_(static_cast<long>(model.ops.size())), period_(baseline.iteration_seconds) {
    issue_.resize(model.ops.size());
    double t = 0;
    for (std::size_t i = 0; i < issue_.size(); ++i) issue_[i] = t = std::max(t, baseline.op_start[i]);
    const std::vector<Bytes> live = live_bytes_per_op(model);
    load_.assign(live.begin(), live.end());
    prefix_.assign(load_.size() + 1, 0);
    for (std::size_t i = 0; i < load_.size(); ++i) prefix_[i + 1] = prefix_[i] + load_[i];
    peak_ = static_cast<long>(std::max_element(load_.begin(), load_.end()) - load_.begin());
    find_candidates();
  }

  std::vector<SwapOp> plan(Bytes limit, PaperScheduling scheduling) {
    limit_ = static_cast<std::int64_t>(limit);
    if (selected_limit_ != limit_) {  // both schedulings of one limit share its selection
      selected_ = select();
      selected_limit_ = limit_;
    }
    std::vector<Candidate> chosen = selected_;
    if (scheduling == PaperScheduling::no_overhead) schedule_no_overhead(chosen);
    else schedule_stick_to_limit(chosen);
    std::vector<SwapOp> ops;
    for (const Candidate& c : chosen) {
      const long in = std::clamp(c.in_start, c.out + 1, c.need);
      const long release = std::clamp(c.out_end, c.out + 1, in);
      ops.push_back({c.buffer, wrap(c.out), wrap(in), wrap(c.need), true, wrap(release)});
    }
    mark_clean_swap_outs(model_, ops);
    return ops;
  }

 private:
  std::uint32_t wrap(long x) const { return static_cast<std::uint32_t>(((x % n_) + n_) % n_); }
  // The issue time of unrolled position x.
  double t(long x) const {
    const long q = x >= 0 ? x / n_ : -((-x + n_ - 1) / n_);
    return issue_[x - q * n_] + static_cast<double>(q) * period_;
  }
  double out_time(Bytes size) const { return link_.copy_seconds(size) + link_.unmap_seconds; }
  double in_time(Bytes size) const { return link_.copy_seconds(size) + link_.map_seconds; }
  // First unrolled x in [from, from + 2n] with t(x) >= time (or from + 2n); last x in
  // [to - 2n, to] with t(x) <= time (or to - 2n). t is non-decreasing, so both are binary searches.
  long first_at_or_after(long from, double time) const {
    long lo = from, hi = from + 2 * n_;
    while (lo < hi) {
      const long mid = lo + (hi - lo) / 2;
      if (t(mid) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  long last_at_or_before(long to, double time) const {
    long lo = to - 2 * n_, hi = to;
    while (lo < hi) {
      const long mid = hi - (hi - lo) / 2;
      if (t(mid) > time) hi = mid - 1;
      else lo = mid;
    }
    return lo;
  }
  long double load_sum(long from, long to) const {  // sum of load over unrolled [from, to)
    long double sum = 0;
    for (long x = from; x < to;) {
      const long base = wrap(x), run = std::min(to - x, n_ - base);
      sum += prefix_[base + run] - prefix_[base];
      x += run;
    }
    return sum;
  }
  void add(RangeMax& tree, long from, long to, std::int64_t delta) const {
    for (long x = from; x < to;) {
      const long base = wrap(x), run = std::min(to - x, n_ - base);
      tree.add(base, base + run, delta);
      x += run;
    }
  }

  // The first unrolled position in [from, to) whose load exceeds the limit, or `to`.
  long first_above(const RangeMax& tree, long from, long to) const {
    for (long x = from; x < to;) {
      const long base = wrap(x), run = std::min(to - x, n_ - base);
      const auto hit = static_cast<long>(tree.first_above(limit_, static_cast<std::size_t>(base)));
      if (hit < base + run) return x + (hit - base);
      x += run;
    }
    return to;
  }

  // The gaps across the peak with their limit-free scores, ranked by absence and by absence x
  // size (the first two of the vote's stable sorts; the third, by WDOA, depends on the limit).
  void find_candidates() {
    for (const Gap& g : swappable_gaps(model_, kPaperSmallestBlock)) {
      const auto n = static_cast<std::uint32_t>(n_);
      const long steps_to_peak = cyclic_steps(g.after, static_cast<std::uint32_t>(peak_), n);
      const long gap = cyclic_steps(g.after, g.before, n);
      if (steps_to_peak >= gap) continue;  // the peak is not strictly inside the gap
      Candidate c{g.buffer, peak_ - steps_to_peak, peak_ - steps_to_peak + gap, model_.buffers[g.buffer].size};
      c.doa_origin = t(c.need) - (t(c.out) + model_.ops[g.after].seconds);
      const double doa = c.doa_origin - out_time(c.size) - in_time(c.size);  // fixed: out + in
      c.aoa = doa >= 0 ? doa * static_cast<double>(c.size) : doa / static_cast<double>(c.size);
      load_sums_.push_back(load_sum(c.out, c.need));
      all_.push_back(c);
    }
    std::vector<std::size_t> order(all_.size());
    std::iota(order.begin(), order.end(), 0);
    rank_by(order, [&](std::size_t c) { return all_[c].doa_origin; });
    rank_by(order, [&](std::size_t c) { return all_[c].aoa; });
    ranked_ = std::move(order);
  }

  // Stable-sorts `order` by key, descending, and adds each candidate's position to its votes.
  template <class Key>
  void rank_by(std::vector<std::size_t>& order, Key key) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) > key(b); });
    for (std::size_t i = 0; i < order.size(); ++i) all_[order[i]].votes += static_cast<long>(i);
  }

  // The vote at this limit: WDOA = sum over the absent ops of load - limit (fixed: accumulated
  // and kept), then the greedy choice by votes until the load's peak is under the limit.
  std::vector<Candidate> select() const {
    std::vector<Candidate> all = all_;
    std::vector<double> wdoa(all.size());
    for (std::size_t c = 0; c < all.size(); ++c)
      wdoa[c] = static_cast<double>(load_sums_[c] - static_cast<long double>(limit_) *
                                                        static_cast<long double>(all[c].need - all[c].out));
    std::vector<std::size_t> order = ranked_;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return wdoa[a] > wdoa[b]; });
    for (std::size_t i = 0; i < order.size(); ++i) all[order[i]].votes += static_cast<long>(i), all[order[i]].wdoa = wdoa[order[i]];
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return all[a].votes < all[b].votes; });
    RangeMax load(load_);
    std::vector<Candidate> chosen;
    for (std::size_t c : order) {
      if (load.max() < limit_) break;
      add(load, all[c].out + 1, all[c].need, -static_cast<std::int64_t>(all[c].size));
      chosen.push_back(all[c]);
    }
    return chosen;
  }

  void schedule_no_overhead(std::vector<Candidate>& chosen) const {
    std::sort(chosen.begin(), chosen.end(), [](const Candidate& a, const Candidate& b) { return a.out < b.out; });
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      Candidate& c = chosen[i];
      long ready = c.out + 1;
      if (i > 0) ready = std::max(ready, chosen[i - 1].out_end);
      c.out_end = first_at_or_after(ready, t(ready) + out_time(c.size));
    }
    std::sort(chosen.begin(), chosen.end(), [](const Candidate& a, const Candidate& b) { return a.need > b.need; });
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      Candidate& c = chosen[i];
      long need = c.need;
      if (i > 0) need = std::min(need, chosen[i - 1].in_start);
      c.in_start = last_at_or_before(need, t(need) - in_time(c.size));
    }
  }

  void schedule_stick_to_limit(std::vector<Candidate>& chosen) const {
    RangeMax load(load_);
    std::sort(chosen.begin(), chosen.end(), [](const Candidate& a, const Candidate& b) { return a.out < b.out; });
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      Candidate& c = chosen[i];
      long ready = c.out + 1;
      if (i > 0) ready = std::max(ready, chosen[i - 1].out_end);
      ready = std::min(first_at_or_after(ready, t(ready) + out_time(c.size)), peak_);
      ready = std::max(ready, c.out + 1);
      add(load, ready + 1, c.need, -static_cast<std::int64_t>(c.size));
      // The load exceeds the limit before this swap-out is done: synchronize just before it.
      if (const long x = first_above(load, c.out + 1, ready + 1); x <= ready) {
        const long earlier = std::max(x - 1, c.out + 1);
        add(load, earlier + 1, ready + 1, -static_cast<std::int64_t>(c.size));
        ready = earlier;
      }
      c.out_end = ready;
    }
    std::sort(chosen.begin(), chosen.end(), [](const Candidate& a, const Candidate& b) { return a.need > b.need; });
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      Candidate& c = chosen[i];
      long need = c.need;
      if (i > 0) need = std::min(need, chosen[i - 1].in_start);
      const double prepare = t(need) - in_time(c.size);
      long in = std::max(last_at_or_before(need, prepare), peak_ + 1);
      add(load, in, c.need, static_cast<std::int64_t>(c.size));
      // The load is over the limit after the swap-in would start: start it after that point.
      const std::size_t last = load.last_above(limit_);
      if (last < load.size()) {
        const long over = static_cast<long>(last) > peak_ ? static_cast<long>(last) : static_cast<long>(last) + n_;
        if (over >= in && over < c.need && t(over) > prepare) {
          add(load, in, over + 1, -static_cast<std::int64_t>(c.size));
          in = over + 1;
        }
      }
      c.in_start = std::min(in, c.need);
    }
  }

  const Model& model_;
  const Link& link_;
  long n_;
  double period_;
  std::int64_t limit_ = 0;
  std::optional<std::int64_t> selected_limit_;  // the limit `selected_` was chosen for
  std::vector<Candidate> selected_;
  std::vector<Candidate> all_;        // the gaps across the peak
  std::vector<long double> load_sums_;  // per candidate: the load summed over its absence
  std::vector<std::size_t> ranked_;   // candidates after the stable sorts by DOA_origin and AOA
  std::vector<double> issue_;
  std::vector<std::int64_t> load_;
  std::vector<long double> prefix_;
  long peak_ = 0;
};

PaperPlanner::PaperPlanner(const Model& model, const Link& link, const Simulation& baseline)
    : state_(std::make_unique<State>(model, link, baseline)) {}

PaperPlanner::~PaperPlanner() = default;

std::vector<SwapOp> PaperPlanner::plan(Bytes limit, PaperScheduling scheduling) {
  return state_->plan(limit, scheduling);
}

std::vector<SwapOp> paper_plan(const Model& model, const Link& link, const Simulation& baseline,
                               Bytes limit, PaperScheduling scheduling) {
  return PaperPlanner(model, link, baseline).plan(limit, scheduling);
}

}  // namespace tidepool::swap
