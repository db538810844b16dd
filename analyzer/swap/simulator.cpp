// The timeline simulator (see simulator.h).
#include "analyzer/swap/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace tidepool::swap {
namespace {

constexpr int kPasses = 3;
constexpr int kReported = 1;
constexpr double kNever = std::numeric_limits<double>::quiet_NaN();

struct Instance {  // one swap op in one pass
  double out_start = kNever, out_end = kNever, release = kNever;
  double in_issue = kNever, in_start = kNever, in_end = kNever;
};

struct MemoryEvent {
  double time;
  std::int64_t delta;
};

// Peak of a step function given by events, over [from, to]; also when it is first reached. Only
// the events inside the window are sorted: those before it just set the starting level.
std::pair<Bytes, double> peak_within(std::vector<MemoryEvent>& events, std::int64_t base,
                                     double from, double to) {
  std::int64_t level = base;
  std::size_t kept = 0;
  for (const MemoryEvent& e : events) {
    if (e.time < from) level += e.delta;
    else if (e.time <= to) events[kept++] = e;
  }
  events.resize(kept);
  std::sort(events.begin(), events.end(), [](const MemoryEvent& a, const MemoryEvent& b) {
    return a.time < b.time || (a.time == b.time && a.delta < b.delta);
  });
  std::int64_t peak = level;
  double when = from;
  for (const MemoryEvent& e : events) {
    level += e.delta;
    if (level > peak) peak = level, when = e.time;
  }
  return {static_cast<Bytes>(std::max<std::int64_t>(peak, 0)), when - from};
}

class Simulator {
 public:
  Simulator(const Model& model, std::span<const SwapOp> plan, const Link& link)
      : model_(model), plan_(plan), link_(link), n_(static_cast<std::uint32_t>(model.ops.size())) {
    outs_.resize(n_), ins_.resize(n_), needs_.resize(n_), releases_.resize(n_);
    swapped_.assign(model.buffers.size(), false);
    for (std::uint32_t s = 0; s < plan.size(); ++s) {
      outs_[plan[s].out_after].push_back(s);
      ins_[plan[s].in_at].push_back(s);
      needs_[plan[s].needed_by].push_back(s);
      if (plan[s].release_before) releases_[*plan[s].release_before].push_back(s);
      swapped_[plan[s].buffer] = true;
    }
    instances_.resize(plan.size() * kPasses);
    std::uint32_t streams = 1;
    for (const Op& op : model.ops) streams = std::max(streams, op.stream + 1);
    stream_free_.assign(streams, 0);
    start_.resize(std::size_t{n_} * kPasses);
    end_.resize(std::size_t{n_} * kPasses);
  }

  Simulation run() {
    for (std::uint64_t g = 0; g < std::uint64_t{n_} * kPasses; ++g) step(g);
    Simulation sim;
    const double from = pass_end(kReported - 1), to = pass_end(kReported);
    sim.iteration_seconds = to - from;
    sim.stall_seconds = stall_;
    sim.op_start.resize(n_), sim.op_end.resize(n_);
    for (std::uint32_t i = 0; i < n_; ++i) {
      sim.op_start[i] = start_[std::size_t{kReported} * n_ + i] - from;
      sim.op_end[i] = end_[std::size_t{kReported} * n_ + i] - from;
    }
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const Instance& x = instances_[s * kPasses + kReported];
      sim.swaps.push_back({x.out_start - from, x.out_end - from, x.release - from,
                           x.in_issue - from, x.in_start - from, x.in_end - from});
    }
    count_bytes(sim);
    auto [peak, when] = device_peak(from, to);
    sim.peak_bytes = peak, sim.peak_time = when;
    sim.pinned_peak_bytes = pinned_peak(from, to);
    return sim;
  }

 private:
  std::uint64_t global(std::uint32_t pass, std::uint32_t op) const { return std::uint64_t{pass} * n_ + op; }
  double pass_end(int pass) const {
    double t = 0;
    for (std::uint32_t i = 0; i < n_; ++i) t = std::max(t, end_[global(pass, i)]);
    return t;
  }
  Bytes charge(std::uint32_t buffer) const {
    const Bytes size = model_.buffers[buffer].size;
    return swapped_[buffer] ? rounded_to_granularity(size) : size;
  }
  // The instance of swap s whose role (in, need, release: `steps` after its swap-out) falls at g.
  Instance* instance_at(std::uint32_t s, std::uint64_t g, std::uint32_t steps) {
    if (g < steps) return nullptr;  // its swap-out was before the first simulated iteration
    const std::uint64_t pass = (g - steps) / n_;
    return &instances_[s * kPasses + pass];
  }

  void step(std::uint64_t g) {
    const auto i = static_cast<std::uint32_t>(g % n_);
    const std::uint64_t pass_base = g - i;
    const Op& op = model_.ops[i];
    if (i == 0 && g > 0) {  // iterations are separated by a host synchronization
      const double all = *std::max_element(stream_free_.begin(), stream_free_.end());
      std::fill(stream_free_.begin(), stream_free_.end(), all);
    }
    double base = stream_free_[op.stream];
    for (std::uint32_t dep : op.after) base = std::max(base, end_[pass_base + dep]);
    for (std::uint32_t s : ins_[i]) {
      Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_));
      if (!x) continue;
      x->in_issue = std::max(base, x->release);
      x->in_start = std::max(x->in_issue + link_.map_seconds, h2d_free_);
      x->in_end = x->in_start + link_.copy_seconds(model_.buffers[plan_[s].buffer].size);
      h2d_free_ = x->in_end;
    }
    double ready = base;
    for (std::uint32_t s : needs_[i])
      if (Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_)))
        ready = std::max(ready, x->in_end);
    for (std::uint32_t s : releases_[i])
      if (Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_)))
        ready = std::max(ready, x->release);
    if (g / n_ == kReported) stall_ += ready - base;
    start_[g] = ready;
    end_[g] = ready + op.seconds;
    stream_free_[op.stream] = end_[g];
    for (std::uint32_t s : outs_[i]) {
      Instance& x = instances_[s * kPasses + g / n_];
      x.out_start = end_[g];
      if (plan_[s].copy_out) {
        x.out_start = std::max(end_[g], d2h_free_);
        x.out_end = x.out_start + link_.copy_seconds(model_.buffers[plan_[s].buffer].size);
        d2h_free_ = x.out_end;
      } else {
        x.out_end = x.out_start;
      }
      x.release = x.out_end + link_.unmap_seconds;
    }
  }

  void count_bytes(Simulation& sim) const {
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const Bytes size = model_.buffers[plan_[s].buffer].size;
      for (int p = 0; p < kPasses; ++p) {
        const Instance& x = instances_[s * kPasses + p];
        if (p == kReported && plan_[s].copy_out) sim.bytes_out += size;
        const std::uint64_t g_in = global(p, plan_[s].out_after) +
                                   cyclic_steps(plan_[s].out_after, plan_[s].in_at, n_);
        if (g_in / n_ == kReported && !std::isnan(x.in_end)) sim.bytes_in += size;
      }
    }
  }

  std::pair<Bytes, double> device_peak(double from, double to) {
    std::vector<MemoryEvent> events;
    events.reserve(model_.buffers.size() * 2 * kPasses + plan_.size() * 2 * kPasses);
    std::int64_t base = 0;
    for (std::uint32_t b = 0; b < model_.buffers.size(); ++b) {
      const Buffer& buffer = model_.buffers[b];
      const auto c = static_cast<std::int64_t>(charge(b));
      if (buffer.persistent) {
        base += c;
        continue;
      }
      if (buffer.begin == buffer.end) continue;
      for (std::uint32_t p = 0; p < kPasses; ++p) {
        double last = end_[global(p, buffer.end - 1)];
        if (!buffer.accesses.empty()) last = std::max(last, end_[global(p, buffer.accesses.back().op)]);
        events.push_back({start_[global(p, buffer.begin)], c});
        events.push_back({last, -c});
      }
    }
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const auto c = static_cast<std::int64_t>(charge(plan_[s].buffer));
      for (int p = 0; p < kPasses; ++p) {
        const Instance& x = instances_[s * kPasses + p];
        events.push_back({x.release, -c});
        if (!std::isnan(x.in_issue)) events.push_back({x.in_issue, c});
      }
    }
    return peak_within(events, base, from, to);
  }

  Bytes pinned_peak(double from, double to) {
    std::vector<MemoryEvent> events;
    std::int64_t base = 0;
    std::vector<bool> counted(model_.buffers.size(), false);
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const std::uint32_t b = plan_[s].buffer;
      const auto c = static_cast<std::int64_t>(rounded_to_granularity(model_.buffers[b].size));
      if (model_.buffers[b].persistent) {
        if (!counted[b]) base += c;
        counted[b] = true;
        continue;
      }
      for (int p = 0; p < kPasses; ++p) {
        const Instance& x = instances_[s * kPasses + p];
        events.push_back({x.out_start, c});
        events.push_back({!std::isnan(x.in_end) ? x.in_end : to, -c});
      }
    }
    return peak_within(events, base, from, to).first;
  }

  const Model& model_;
  std::span<const SwapOp> plan_;
  const Link& link_;
  std::uint32_t n_;
  std::vector<std::vector<std::uint32_t>> outs_, ins_, needs_, releases_;
  std::vector<bool> swapped_;
  std::vector<Instance> instances_;
  std::vector<double> start_, end_;
  std::vector<double> stream_free_;
  double d2h_free_ = 0, h2d_free_ = 0, stall_ = 0;
};

}  // namespace

Simulation simulate(const Model& model, std::span<const SwapOp> plan, const Link& link) {
  check_swap_ops(model, plan);
  return Simulator(model, plan, link).run();
}

}  // namespace tidepool::swap
