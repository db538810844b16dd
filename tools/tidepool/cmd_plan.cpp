// `tidepool plan [--pool [--algorithm NAME] [--time-limit S]] [--swap [--budget BYTES |
// --max-slowdown PCT] [--link NAME|GBPS] [--planner paper|best]] [--iteration-marker NVTX_NAME |
// --iteration-kernel NAME] TRACE -o PLAN.json`: finds the trace's training iteration, plans its
// pool and/or its swaps, writes the plan (docs/plan-format.md) and prints a short summary.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "analyzer/plan/plan_io.h"
#include "analyzer/plan/trace_plan.h"
#include "analyzer/report/units.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

struct PlanOptions {
  std::string trace;
  std::string output;
  bool pool = false;
  std::string algorithm = "best";
  double time_limit = 10;
  bool swap = false;
  std::uint64_t budget = 0;
  double max_slowdown = 0;
  std::string link = "pcie5";
  std::string planner = "best";
  std::string iteration_marker;
  std::string iteration_kernel;
};

plan::PlanRequest request_of(const PlanOptions& o, bool budget_given) {
  plan::PlanRequest r;
  if (!o.iteration_marker.empty()) r.iteration = {plan::BoundaryKind::nvtx_range, o.iteration_marker};
  if (!o.iteration_kernel.empty()) r.iteration = {plan::BoundaryKind::kernel, o.iteration_kernel};
  if (o.pool) r.pool = plan::PoolRequest{o.algorithm, o.time_limit};
  if (o.swap) {
    r.swap = plan::SwapRequest{o.planner, o.link, std::nullopt, o.max_slowdown};
    if (budget_given) r.swap->budget_bytes = o.budget;
  }
  return r;
}

std::string boundary_text(const plan::IterationDescription& it) {
  switch (it.boundary) {
    case plan::BoundaryKind::nvtx_range: return "at each NVTX range '" + it.name + "'";
    case plan::BoundaryKind::kernel: return "at each launch of '" + it.name + "'";
    case plan::BoundaryKind::period: break;
  }
  return "detected";
}

void print_summary(const plan::Plan& p, const std::string& output) {
  const plan::IterationDescription& it = p.iteration;
  std::printf("iteration:   %llu events (%s), %llu iterations, %.0f%% identical\n",
              static_cast<unsigned long long>(it.events), boundary_text(it).c_str(),
              static_cast<unsigned long long>(it.iterations_seen), 100 * it.regularity);
  if (p.pool) {
    const plan::PoolSection& pool = *p.pool;
    const double above = pool.lower_bound_bytes ? 100.0 * (static_cast<double>(pool.arena_bytes) /
                                                               static_cast<double>(pool.lower_bound_bytes) - 1)
                                                : 0.0;
    std::printf("allocations: %llu per iteration, %zu pooled; persistent %s\n",
                static_cast<unsigned long long>(it.allocations), pool.slots.size(),
                report::human_bytes(pool.persistent_bytes).c_str());
    std::printf("pool:        arena %s with %s, lower bound %s (%+.1f%%)\n", report::human_bytes(pool.arena_bytes).c_str(),
                pool.solver.c_str(), report::human_bytes(pool.lower_bound_bytes).c_str(), above);
  }
  if (p.swap) {
    std::printf("swap:        %zu swaps with %s over %s, planned peak %s, simulated slowdown %.2f%%\n",
                p.swap->operations.size(), p.swap->planner.c_str(), p.swap->link.c_str(),
                report::human_bytes(p.swap->planned_peak_bytes).c_str(), p.swap->simulated_slowdown_pct);
  }
  std::printf("plan:        %s (fingerprint %s)\n", output.c_str(), p.fingerprint.c_str());
}

void run_plan(const PlanOptions& o, bool budget_given) {
  if (!o.pool && !o.swap) throw UsageError("plan: nothing to plan; give --pool and/or --swap");
  if (o.time_limit <= 0) throw UsageError("plan: --time-limit must be positive");
  if (o.max_slowdown < 0) throw UsageError("plan: --max-slowdown must not be negative");
  const plan::FilePlan p = plan::plan_from_file(o.trace, request_of(o, budget_given));
  if (p.truncated)
    std::fprintf(stderr, "tidepool: warning: %s is truncated; read up to its last whole record\n", o.trace.c_str());
  plan::write_plan(p.plan, o.output);
  print_summary(p.plan, o.output);
}

}  // namespace

void add_plan(CLI::App& app) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* cmd = app.add_subcommand("plan", "Plan one training iteration of a traced program: a pool, swaps, or both");
  cmd->add_option("trace", o->trace, "Trace file")->required();
  cmd->add_option("-o,--output", o->output, "The plan file to write (JSON)")->required();
  cmd->add_flag("--pool", o->pool, "Pack the iteration's allocations into one planned arena");
  cmd->add_option("--algorithm", o->algorithm, "Packing solver (see `tidepool bench pack`)")->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit, "Seconds the packing solver may search")->capture_default_str();
  cmd->add_flag("--swap", o->swap, "Swap idle buffers to host memory and back");
  auto* budget = cmd->add_option("--budget", o->budget, "Swap: the peak device memory to reach, in bytes");
  auto* slowdown = cmd->add_option("--max-slowdown", o->max_slowdown,
                                   "Swap: the lowest peak within this % of slowdown")->capture_default_str();
  budget->excludes(slowdown);
  cmd->add_option("--link", o->link, "Swap: pcie4, pcie5, nvlink-c2c or a bandwidth in GB/s")->capture_default_str();
  cmd->add_option("--planner", o->planner, "Swap: paper or best")->capture_default_str();
  auto* marker = cmd->add_option("--iteration-marker", o->iteration_marker,
                                 "An NVTX range whose every push starts an iteration");
  auto* kernel = cmd->add_option("--iteration-kernel", o->iteration_kernel,
                                 "A kernel whose every launch starts an iteration");
  marker->excludes(kernel);
  cmd->callback([o, budget] { run_plan(*o, budget->count() > 0); });
}

}  // namespace tidepool::cli
