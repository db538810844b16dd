// ProcessReport -> JSON with nlohmann::json (ordered keys, so that the output reads as documented).
#include "analyzer/report/json_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzer/report/runtime_decisions_json.h"

namespace tidepool::report {
namespace {

using Json = nlohmann::ordered_json;

Json stack_of(const ProcessReport& p, uint32_t stack_id) {
  const auto it = p.stacks.find(stack_id);
  return it == p.stacks.end() ? Json::array() : Json(it->second);
}

Json allocations(const ProcessReport& p, const std::vector<AllocationInfo>& list) {
  Json out = Json::array();
  for (size_t i = 0; i < std::min(list.size(), kMaxJsonListEntries); ++i) {
    const AllocationInfo& a = list[i];
    out.push_back({{"alloc_id", a.alloc_id},
                   {"kind", trace::to_string(a.kind)},
                   {"address", a.address},
                   {"size", a.size},
                   {"time_ns", a.time_ns},
                   {"stack_id", a.stack_id},
                   {"stack", stack_of(p, a.stack_id)}});
  }
  return out;
}

Json iteration_plans(const IterationPlans& plans) {
  if (!plans.no_iteration_reason.empty()) {
    return {{"iteration_found", false}, {"no_iteration_reason", plans.no_iteration_reason}};
  }
  Json solvers = Json::array();
  for (const SolverResult& s : plans.solvers) {
    solvers.push_back({{"solver", s.solver}, {"arena_bytes", s.arena_bytes}, {"seconds", s.seconds}});
  }
  Json swap = Json::array();
  for (const SwapResult& r : plans.swap) {
    swap.push_back({{"planner", r.planner},
                    {"max_slowdown_pct", r.max_slowdown_pct},
                    {"peak_bytes", r.peak_bytes},
                    {"simulated_slowdown_pct", r.simulated_slowdown_pct},
                    {"bytes_moved", r.bytes_moved},
                    {"floor_bytes", r.floor_bytes},
                    {"link_bound_bytes", r.link_bound_bytes}});
  }
  Json out = {{"iteration_found", true},
              {"iteration",
               {{"boundary", plans.boundary},
                {"events", plans.period_events},
                {"allocations", plans.allocations_per_iteration},
                {"operations", plans.operations_per_iteration},
                {"iterations_seen", plans.iterations_seen},
                {"regularity", plans.regularity},
                {"first_boundary", plans.first_boundary}}},
              {"observed_peak_bytes", plans.observed_peak_bytes},
              {"live_at_start_bytes", plans.live_at_start_bytes},
              {"escaping_bytes", plans.escaping_bytes},
              {"lower_bound_bytes", plans.lower_bound_bytes},
              {"solver_time_limit_seconds", plans.solver_seconds},
              {"pool_solvers", solvers},
              {"swap",
               {{"link", plans.link},
                {"link_bytes_per_second", plans.link_bytes_per_second},
                {"durations_estimated", plans.durations_estimated},
                {"unoptimized_peak_bytes", plans.unoptimized_peak_bytes},
                {"results", swap}}}};
  if (!plans.swap_error.empty()) out["swap"]["error"] = plans.swap_error;
  return out;
}

Json process(const ProcessReport& p) {
  Json kinds = Json::array();
  for (const KindTotals& k : p.kinds) {
    kinds.push_back({{"kind", trace::to_string(k.kind)},
                     {"device_memory", trace::is_device_memory(k.kind)},
                     {"allocations", k.allocations},
                     {"frees", k.frees},
                     {"bytes_allocated", k.bytes_allocated},
                     {"peak_live_bytes", k.peak_live_bytes},
                     {"live_bytes_at_exit", k.live_bytes_at_exit}});
  }
  Json devices = Json::array();
  for (const DeviceTotals& d : p.devices) {
    devices.push_back({{"device", d.device},
                       {"peak_requested_bytes", d.peak_requested_bytes},
                       {"leaked_bytes", d.leaked_bytes}});
  }
  Json kernels = Json::array();
  for (size_t i = 0; i < std::min(p.kernels.size(), kMaxJsonListEntries); ++i) {
    const KernelTotals& k = p.kernels[i];
    kernels.push_back({{"name", k.name},
                       {"launches", k.launches},
                       {"bytes_touched", k.bytes_touched},
                       {"max_bytes_per_launch", k.max_bytes_per_launch},
                       {"undecoded_launches", k.undecoded_launches}});
  }
  Json histogram = Json::array();
  for (const SizeBucket& b : p.size_histogram) {
    histogram.push_back({{"min_bytes", b.min_bytes},
                         {"max_bytes", b.min_bytes ? 2 * b.min_bytes : 2},
                         {"allocations", b.allocations},
                         {"bytes", b.bytes}});
  }
  Json sites = Json::array();
  for (const Site& s : p.sites) {
    sites.push_back({{"stack_id", s.stack_id},
                     {"stack", stack_of(p, s.stack_id)},
                     {"allocations", s.allocations},
                     {"bytes_allocated", s.bytes_allocated},
                     {"live_at_peak_bytes", s.live_at_peak_bytes},
                     {"leaked_bytes", s.leaked_bytes}});
  }
  Json out = {{"trace", p.trace_path},
              {"pid", p.pid},
              {"rank", p.rank},
              {"host", p.host},
              {"program", p.program},
              {"source", p.source},
              {"synthetic", p.synthetic},
              {"truncated", p.truncated},
              {"duration_ns", p.duration_ns},
              {"peak_requested_bytes", p.peak_requested_bytes},
              {"peak_time_ns", p.peak_time_ns},
              {"peak_seq", p.peak_seq},
              {"peak_nvtx_ranges", p.peak_nvtx_ranges},
              {"allocations", p.allocations},
              {"frees", p.frees},
              {"kernel_launches", p.kernel_launches},
              {"graph_launches", p.graph_launches},
              {"copies", p.copies},
              {"sets", p.sets},
              {"leaked_bytes", p.leaked_bytes},
              {"leaked_allocations", p.leaked_allocations},
              {"devices", devices},
              {"memory_by_kind", kinds},
              {"live_at_peak_count", p.live_at_peak.size()},
              {"live_at_peak", allocations(p, p.live_at_peak)},
              {"leaks", allocations(p, p.leaks)},
              {"kernels", kernels},
              {"size_histogram", histogram},
              {"sites", sites},
              {"runtime", runtime_totals_json(p.runtime)}};
  if (p.runtime) out["runtime_decisions"] = runtime_decisions_json(*p.runtime);
  if (p.plans) out["iteration_and_plans"] = iteration_plans(*p.plans);
  return out;
}

}  // namespace

std::string json_report(std::span<const ProcessReport> processes) {
  Json out = {{"tidepool_report_version", kReportFormatVersion}, {"processes", Json::array()}};
  for (const ProcessReport& p : processes) out["processes"].push_back(process(p));
  return out.dump(2) + "\n";
}

}  // namespace tidepool::report
