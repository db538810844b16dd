// The simulated iteration beside the recorded clock (see clock_check.h).
#include "analyzer/swap/clock_check.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>

#include "analyzer/swap/simulator.h"

namespace tidepool::swap {

ClockComparison compare_with_recorded_clock(const trace::Trace& trace, const Model& model) {
  std::unordered_map<std::uint64_t, const trace::DeviceTiming*> timing;
  for (const trace::Event& e : trace.events)
    if (const auto* t = std::get_if<trace::DeviceTiming>(&e.record)) timing[t->op_id] = t;
  struct Timed {
    std::size_t op;
    double start, end;
  };
  std::vector<Timed> timed;
  for (std::size_t i = 0; i < model.ops.size(); ++i)
    if (const auto it = timing.find(model.ops[i].trace_op_id); it != timing.end())
      timed.push_back({i, static_cast<double>(it->second->start_ns) * 1e-9, static_cast<double>(it->second->end_ns) * 1e-9});
  if (timed.empty()) throw std::invalid_argument("no op of the iteration has a device timing");
  const Simulation sim = simulate(model, {}, Link{});
  const auto first = std::min_element(timed.begin(), timed.end(), [](const Timed& a, const Timed& b) { return a.start < b.start; });
  std::uint32_t streams = 0;
  for (const Op& op : model.ops) streams = std::max(streams, op.stream + 1);
  std::vector<const Timed*> last_on(streams, nullptr);
  const Timed* last = nullptr;
  for (const Timed& t : timed) {
    const Timed*& on = last_on[model.ops[t.op].stream];
    if (on == nullptr || t.end > on->end) on = &t;
    if (last == nullptr || t.end > last->end) last = &t;
  }
  ClockComparison out;
  out.timed_ops = timed.size();
  const double sim_origin = sim.op_start[first->op];
  out.recorded_seconds = last->end - first->start;
  out.simulated_seconds = sim.op_end[last->op] - sim_origin;
  out.iteration_seconds = sim.iteration_seconds;
  for (const Timed* t : last_on)
    if (t != nullptr) out.streams.push_back({t->end - first->start, sim.op_end[t->op] - sim_origin});
  return out;
}

}  // namespace tidepool::swap
