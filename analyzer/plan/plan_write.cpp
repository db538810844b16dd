// Plan → JSON text (docs/plan-format.md).
#include <fstream>

#include <nlohmann/json.hpp>

#include "analyzer/plan/names.h"
#include "analyzer/plan/plan_io.h"

namespace tidepool::plan {
namespace {

using nlohmann::ordered_json;

ordered_json iteration_json(const IterationDescription& it) {
  ordered_json anchor = ordered_json::array();
  for (const AnchorEvent& a : it.anchor) {
    if (a.kind == AnchorEvent::Kind::alloc) anchor.push_back({{"alloc", a.bytes}});
    else anchor.push_back({{"kernel", a.kernel}});
  }
  return {{"boundary", to_string(it.boundary)}, {"name", it.name},
          {"events", it.events},                {"allocations", it.allocations},
          {"operations", it.operations},        {"anchor", anchor},
          {"iterations_seen", it.iterations_seen}, {"regularity", it.regularity}};
}

ordered_json pool_json(const PoolSection& pool) {
  ordered_json slots = ordered_json::array();
  for (const Slot& s : pool.slots)
    slots.push_back({{"ordinal", s.ordinal}, {"bytes", s.bytes}, {"offset", s.offset}, {"live", {s.begin, s.end}}});
  return {{"solver", pool.solver},
          {"alignment", pool.alignment},
          {"arena_bytes", pool.arena_bytes},
          {"lower_bound_bytes", pool.lower_bound_bytes},
          {"persistent_bytes", pool.persistent_bytes},
          {"slots", slots}};
}

ordered_json swap_json(const SwapSection& swap) {
  ordered_json operations = ordered_json::array();
  for (const SwapOperation& op : swap.operations) {
    ordered_json o = {{"buffer", {{"scope", to_string(op.buffer.scope)}, {"ordinal", op.buffer.ordinal}, {"bytes", op.buffer.bytes}}},
                      {"out_after_op", op.out_after_op},
                      {"in_at_op", op.in_at_op},
                      {"needed_by_op", op.needed_by_op},
                      {"copy_out", op.copy_out}};
    if (op.release_before_op) o["release_before_op"] = *op.release_before_op;
    operations.push_back(std::move(o));
  }
  return {{"planner", swap.planner},
          {"link", swap.link},
          {"planned_peak_bytes", swap.planned_peak_bytes},
          {"simulated_slowdown_pct", swap.simulated_slowdown_pct},
          {"operations", operations}};
}

}  // namespace

std::string to_json_text(const Plan& plan) {
  ordered_json j = {{"format", kFormatName},
                    {"version", plan.version},
                    {"source", {{"trace", plan.source.trace}, {"program", plan.source.program}, {"synthetic", plan.source.synthetic}}},
                    {"fingerprint", plan.fingerprint},
                    {"iteration", iteration_json(plan.iteration)}};
  if (plan.pool) j["pool"] = pool_json(*plan.pool);
  if (plan.swap) j["swap"] = swap_json(*plan.swap);
  return j.dump(1) + "\n";
}

void write_plan(const Plan& plan, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw PlanError(path.string() + ": cannot write the plan");
  out << to_json_text(plan);
  out.flush();
  if (!out) throw PlanError(path.string() + ": cannot write the plan");
}

}  // namespace tidepool::plan
