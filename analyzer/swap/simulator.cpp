// The timeline simulator (see simulator.h).
#include "analyzer/swap/simulator.h"

#include "analyzer/swap/engine_timeline.h"

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

bool earlier(const MemoryEvent& a, const MemoryEvent& b) {
  return a.time < b.time || (a.time == b.time && a.delta < b.delta);  // frees first at a tie
}

// Peak of a step function starting at `base`, given by events sorted with `earlier`; also when
// it is first reached (seconds after `from`).
std::pair<Bytes, double> peak_of(const std::vector<MemoryEvent>& events, std::int64_t base, double from) {
  std::int64_t level = base, peak = base;
  double when = from;
  for (const MemoryEvent& e : events) {
    level += e.delta;
    if (level > peak) peak = level, when = e.time;
  }
  return {static_cast<Bytes>(std::max<std::int64_t>(peak, 0)), when - from};
}

// Per op, the indices of the swaps that act there (compressed rows).
class SwapsAtOp {
 public:
  template <class Op>
  SwapsAtOp(std::size_t ops, std::span<const SwapOp> plan, Op at) : first_(ops + 1, 0) {
    for (const SwapOp& s : plan)
      if (const auto op = at(s)) ++first_[*op + 1];
    for (std::size_t i = 0; i < ops; ++i) first_[i + 1] += first_[i];
    index_.resize(first_[ops]);
    std::vector<std::uint32_t> fill(first_.begin(), first_.end() - 1);
    for (std::uint32_t s = 0; s < plan.size(); ++s)
      if (const auto op = at(plan[s])) index_[fill[*op]++] = s;
  }
  std::span<const std::uint32_t> at(std::uint32_t op) const {
    return {index_.data() + first_[op], index_.data() + first_[op + 1]};
  }

 private:
  std::vector<std::uint32_t> first_, index_;
};

class Simulator {
 public:
  Simulator(const Model& model, std::span<const SwapOp> plan, const Link& link, Placement placement)
      : model_(model), plan_(plan), link_(link), placement_(placement), n_(static_cast<std::uint32_t>(model.ops.size())),
        outs_(n_, plan, [](const SwapOp& s) { return std::optional{s.out_after}; }),
        ins_(n_, plan, [](const SwapOp& s) { return std::optional{s.in_at}; }),
        needs_(n_, plan, [](const SwapOp& s) { return std::optional{s.needed_by}; }),
        releases_(n_, plan, [](const SwapOp& s) { return s.release_before; }) {
    swapped_.assign(model.buffers.size(), false);
    for (const SwapOp& s : plan) swapped_[s.buffer] = true;
    instances_.resize(plan.size() * kPasses);
    std::uint32_t streams = 1;
    for (const Op& op : model.ops) streams = std::max(streams, op.stream + 1);
    stream_free_.assign(streams, 0);
    start_.resize(std::size_t{n_} * kPasses);
    end_.resize(std::size_t{n_} * kPasses);
  }

  Simulation run(double give_up_beyond_seconds) {
    const std::uint64_t reported = std::uint64_t{n_} * kReported;
    for (std::uint64_t g = 0; g < reported; ++g) step(g);
    const double from = pass_end(kReported - 1);  // every op of the reported pass starts after it
    for (std::uint64_t g = reported; g < reported + n_; ++g) {
      step(g);
      if (end_[g] - from > give_up_beyond_seconds) return too_slow();
    }
    for (std::uint64_t g = reported + n_; g < std::uint64_t{n_} * kPasses; ++g) step(g);
    Simulation sim;
    const double to = pass_end(kReported);
    sim.iteration_seconds = to - from;
    sim.stall_seconds = stall_;
    sim.op_start.resize(n_), sim.op_end.resize(n_);
    for (std::uint32_t i = 0; i < n_; ++i) {
      sim.op_start[i] = start_[std::size_t{kReported} * n_ + i] - from;
      sim.op_end[i] = end_[std::size_t{kReported} * n_ + i] - from;
    }
    sim.swaps.reserve(plan_.size());
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const Instance& x = instances_[s * kPasses + kReported];
      sim.swaps.push_back({x.out_start - from, x.out_end - from, x.release - from,
                           x.in_issue - from, x.in_start - from, x.in_end - from});
    }
    count_bytes(sim);
    auto [peak, when] = device_peak(from, to, sim);
    sim.peak_bytes = peak, sim.peak_time = when;
    sim.pinned_peak_bytes = pinned_peak(from, to);
    return sim;
  }

 private:
  static Simulation too_slow() {
    Simulation sim;
    sim.iteration_seconds = std::numeric_limits<double>::infinity();
    return sim;
  }
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
  EngineTimeline& engine(Engine e) { return engines_[static_cast<int>(e)]; }

  void step(std::uint64_t g) {
    const auto i = static_cast<std::uint32_t>(g % n_);
    const std::uint64_t pass_base = g - i;
    const Op& op = model_.ops[i];
    if (i == 0 && g > 0) {  // iterations are separated by a host synchronization
      const double all = *std::max_element(stream_free_.begin(), stream_free_.end());
      std::fill(stream_free_.begin(), stream_free_.end(), all);
      host_now_ = std::max(host_now_, all);
    }
    for (std::uint32_t waited : op.host_waits) host_now_ = std::max(host_now_, end_[pass_base + waited]);
    double base = std::max(stream_free_[op.stream], host_now_);
    for (std::uint32_t dep : op.after) base = std::max(base, end_[pass_base + dep]);
    for (std::uint32_t s : ins_.at(i)) {
      Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_));
      if (!x) continue;
      x->in_issue = std::max(base, x->release);
      const double copy = link_.copy_seconds(model_.buffers[plan_[s].buffer].size);
      x->in_start = engine(Engine::host_to_device).place(x->in_issue + link_.map_seconds, copy);
      x->in_end = x->in_start + copy;
    }
    double ready = base;
    for (std::uint32_t s : needs_.at(i))
      if (Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_)))
        ready = std::max(ready, x->in_end);
    for (std::uint32_t s : releases_.at(i))
      if (Instance* x = instance_at(s, g, cyclic_steps(plan_[s].out_after, i, n_)))
        ready = std::max(ready, x->release);
    if (g / n_ == kReported) stall_ += ready - base;
    start_[g] = engine(op.engine).place(ready, op.seconds);
    end_[g] = start_[g] + op.seconds;
    stream_free_[op.stream] = end_[g];
    for (std::uint32_t s : outs_.at(i)) {
      Instance& x = instances_[s * kPasses + g / n_];
      x.out_start = end_[g];
      if (plan_[s].copy_out) {
        const double copy = link_.copy_seconds(model_.buffers[plan_[s].buffer].size);
        x.out_start = engine(Engine::device_to_host).place(end_[g], copy);
        x.out_end = x.out_start + copy;
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

  // Device memory over [from, to]: each buffer is charged from the start of op `begin` to the end
  // of its last op (`end - 1`, or its last access when that ends later). Buffers are summed per op
  // where their last op is fixed (one stream orders both), so the events are per op, not per buffer.
  // With a static arena, the arena's height is counted throughout instead of its buffers.
  std::pair<Bytes, double> device_peak(double from, double to, Simulation& sim) {
    std::vector<std::int64_t> alloc_at(n_, 0), free_at(n_, 0);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> either;  // (buffer, other last op)
    std::int64_t base = 0;
    std::vector<std::int64_t> arena_delta(placement_ == Placement::static_arena ? n_ + 1 : 0, 0);
    for (std::uint32_t b = 0; b < model_.buffers.size(); ++b) {
      const Buffer& buffer = model_.buffers[b];
      const auto c = static_cast<std::int64_t>(charge(b));
      if (buffer.persistent) {
        base += c;
        continue;
      }
      if (buffer.begin == buffer.end) continue;
      if (!arena_delta.empty() && !swapped_[b]) {
        arena_delta[buffer.begin] += c;
        arena_delta[buffer.end] -= c;
        continue;
      }
      alloc_at[buffer.begin] += c;
      const std::uint32_t last = buffer.end - 1;  // accesses are before `end`: only another stream's may end later
      if (!buffer.accesses.empty() && model_.ops[buffer.accesses.back().op].stream != model_.ops[last].stream)
        either.push_back({b, buffer.accesses.back().op});
      else
        free_at[last] += c;
    }
    if (!arena_delta.empty()) {
      std::int64_t level = 0, height = 0;
      for (std::uint32_t i = 0; i < n_; ++i) {
        level += arena_delta[i];
        if (level > height) height = level, sim.arena_peak_op = i;
      }
      sim.arena_bytes = static_cast<Bytes>(height);
      base += height;
    }
    std::vector<MemoryEvent> events;
    events.reserve(std::size_t{n_} * 2 + either.size() * 2);
    auto add = [&](double time, std::int64_t delta) {
      if (time < from) base += delta;
      else if (time <= to) events.push_back({time, delta});
    };
    for (std::uint32_t p = 0; p < kPasses; ++p) {
      for (std::uint32_t i = 0; i < n_; ++i) {
        if (alloc_at[i] != 0) add(start_[global(p, i)], alloc_at[i]);
        if (free_at[i] != 0) add(end_[global(p, i)], -free_at[i]);
      }
      for (const auto& [b, access] : either) {
        const auto c = static_cast<std::int64_t>(charge(b));
        add(std::max(end_[global(p, model_.buffers[b].end - 1)], end_[global(p, access)]), -c);
      }
    }
    if (!std::is_sorted(events.begin(), events.end(), earlier)) std::sort(events.begin(), events.end(), earlier);
    std::vector<MemoryEvent> swaps;
    auto add_swap = [&](double time, std::int64_t delta) {
      if (time < from) base += delta;
      else if (time <= to) swaps.push_back({time, delta});
    };
    for (std::size_t s = 0; s < plan_.size(); ++s) {
      const auto c = static_cast<std::int64_t>(charge(plan_[s].buffer));
      for (int p = 0; p < kPasses; ++p) {
        const Instance& x = instances_[s * kPasses + p];
        add_swap(x.release, -c);
        if (!std::isnan(x.in_issue)) add_swap(x.in_issue, c);
      }
    }
    std::sort(swaps.begin(), swaps.end(), earlier);
    std::vector<MemoryEvent> all(events.size() + swaps.size());
    std::merge(events.begin(), events.end(), swaps.begin(), swaps.end(), all.begin(), earlier);
    return peak_of(all, base, from);
  }

  Bytes pinned_peak(double from, double to) {
    std::vector<MemoryEvent> events;
    std::int64_t base = 0;
    std::vector<bool> counted(model_.buffers.size(), false);
    auto add = [&](double time, std::int64_t delta) {
      if (time < from) base += delta;
      else if (time <= to) events.push_back({time, delta});
    };
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
        add(x.out_start, c);
        add(!std::isnan(x.in_end) ? x.in_end : to, -c);
      }
    }
    std::sort(events.begin(), events.end(), earlier);
    return peak_of(events, base, from).first;
  }

  const Model& model_;
  std::span<const SwapOp> plan_;
  const Link& link_;
  Placement placement_;
  std::uint32_t n_;
  SwapsAtOp outs_, ins_, needs_, releases_;
  std::vector<bool> swapped_;
  std::vector<Instance> instances_;
  std::vector<double> start_, end_;
  std::vector<double> stream_free_;
  EngineTimeline engines_[3];
  double host_now_ = 0, stall_ = 0;
};

}  // namespace

Simulation simulate(const Model& model, std::span<const SwapOp> plan, const Link& link, Placement placement,
                    double give_up_beyond_seconds) {
  check_swap_ops(model, plan);
  return Simulator(model, plan, link, placement).run(give_up_beyond_seconds);
}

}  // namespace tidepool::swap
