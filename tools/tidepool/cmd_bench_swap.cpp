// `tidepool bench swap [--link NAME|GBPS] [--json] TRACE...`: for each trace and swap planner, at
// 0%, 1% and 5% allowed slowdown, the unoptimized peak, the planned peak, the simulated slowdown,
// the bytes moved, the floor and the link bound, and how long planning took (wall and CPU time).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/iteration/detection.h"
#include "analyzer/iteration/from_trace.h"
#include "analyzer/plan/swap_plan.h"
#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/planner.h"
#include "analyzer/synth/trace_output.h"
#include "analyzer/trace/reader.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

struct BenchSwapOptions {
  std::vector<std::string> traces;
  std::string link = "pcie5";
  std::string planner = "all";
  std::string slowdowns = "0,1,5";
  bool json = false;
};

struct Row {
  std::string trace;
  bool synthetic = false;
  std::string planner;
  double max_slowdown_pct = 0;
  swap::Result result;
  double seconds = 0;      // planning, wall clock
  double cpu_seconds = 0;  // planning, this thread's CPU time
  double model_seconds = 0;  // building the model from the trace (once per trace), wall clock
};

// The iteration to plan: the middle one of the NVTX "iteration" ranges (what synth writes), or
// else the reference iteration the period detector finds; each buffer's accesses are compared
// with the other iterations (only buffers accessed alike in all of them may move).
swap::Model iteration_model(const trace::Trace& trace, const std::string& path) {
  const std::vector<swap::TraceWindow> ranges = swap::nvtx_iterations(trace, synth::kIterationRange);
  if (ranges.size() >= 2) return swap::model_from_trace(trace, ranges[ranges.size() / 2], ranges);
  const iteration::EventStream stream = iteration::event_stream(trace);
  const auto detection = iteration::detect_by_period(stream);
  if (!detection) throw std::runtime_error(path + ": no repeating iteration found");
  return plan::iteration_model(trace,
                               plan::iteration_windows(trace.events.size(), stream, *detection));
}

// CPU time of the calling thread (the machine may be shared: wall time alone misleads).
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// "0,1,5" -> {0, 1, 5}; each a finite percentage >= 0.
std::vector<double> parse_slowdowns(const std::string& text) {
  std::vector<double> values;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const std::string item = text.substr(from, comma - from);
    double value = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || error != std::errc{} || end != item.data() + item.size() || !(value >= 0) || !std::isfinite(value))
      throw UsageError("--slowdowns takes percentages >= 0 separated by commas, not '" + text + "'");
    values.push_back(value);
    from = comma + 1;
  }
  return values;
}

void print_header() {
  std::printf("%-28s %-6s %6s %12s %12s %7s %9s %11s %12s %12s %9s %9s\n", "trace", "plan", "max_%", "unoptimized",
              "peak", "cut_%", "slowdown%", "moved", "floor", "link_bound", "seconds", "cpu_s");
}

void print_row(const Row& r) {
  const double gib = 1024.0 * 1024 * 1024;
  const auto& x = r.result;
  const double cut = 100.0 * (1 - static_cast<double>(x.simulated.peak_bytes) / static_cast<double>(x.baseline.peak_bytes));
  const std::string name = r.trace + (r.synthetic ? " (synthetic)" : "");
  std::printf("%-28s %-6s %6.1f %10.2fGi %10.2fGi %7.2f %9.3f %9.2fGi %10.2fGi %10.2fGi %9.3f %9.3f\n", name.c_str(),
              r.planner.c_str(), r.max_slowdown_pct, static_cast<double>(x.baseline.peak_bytes) / gib,
              static_cast<double>(x.simulated.peak_bytes) / gib, cut, x.slowdown_pct(),
              static_cast<double>(x.simulated.bytes_out + x.simulated.bytes_in) / gib,
              static_cast<double>(x.bounds.floor_bytes) / gib, static_cast<double>(x.bounds.link_bound_bytes) / gib,
              r.seconds, r.cpu_seconds);
  std::fflush(stdout);
}

void print_json(const std::vector<Row>& rows, const std::string& link) {
  nlohmann::json array = nlohmann::json::array();
  for (const Row& r : rows) {
    const auto& x = r.result;
    array.push_back({{"trace", r.trace},
                     {"synthetic", r.synthetic},
                     {"planner", r.planner},
                     {"link", link},
                     {"max_slowdown_pct", r.max_slowdown_pct},
                     {"unoptimized_peak_bytes", x.baseline.peak_bytes},
                     {"peak_bytes", x.simulated.peak_bytes},
                     {"simulated_slowdown_pct", x.slowdown_pct()},
                     {"bytes_moved", x.simulated.bytes_out + x.simulated.bytes_in},
                     {"floor_bytes", x.bounds.floor_bytes},
                     {"link_bound_bytes", x.bounds.link_bound_bytes},
                     {"swaps", x.ops.size()},
                     {"planning_seconds", r.seconds},
                     {"planning_cpu_seconds", r.cpu_seconds},
                     {"model_seconds", r.model_seconds}});
  }
  std::cout << array.dump(1) << '\n';
}

void bench_swap(const BenchSwapOptions& o) {
  if (o.traces.empty()) throw UsageError("bench swap needs at least one TRACE");
  swap::Link link;
  std::vector<swap::Planner> planners;
  try {
    link = swap::parse_link(o.link);
    if (o.planner == "all") planners = {swap::Planner::paper, swap::Planner::best};
    else planners = {swap::parse_planner(o.planner)};
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const std::vector<double> slowdowns = parse_slowdowns(o.slowdowns);
  std::vector<Row> rows;
  bool header_due = !o.json;  // printed once the first trace reads, so that an error comes alone
  for (const std::string& path : o.traces) {
    const trace::Trace trace = trace::read_trace(path);
    if (header_due) print_header();
    header_due = false;
    const auto model_start = std::chrono::steady_clock::now();
    const swap::Model model = iteration_model(trace, path);
    const double model_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - model_start).count();
    if (!o.json) std::printf("# %s: %zu ops, %zu buffers, model built in %.3f s\n", path.c_str(), model.ops.size(),
                             model.buffers.size(), model_seconds);
    for (double pct : slowdowns)
      for (swap::Planner planner : planners) {
        Row row{path, trace.header.synthetic, std::string(swap::to_string(planner)), pct, {}, 0, 0, model_seconds};
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = thread_cpu_seconds();
        row.result = swap::plan(model, swap::Target{std::nullopt, pct}, planner, link);
        row.cpu_seconds = thread_cpu_seconds() - cpu_start;
        row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!o.json) print_row(row);
        rows.push_back(std::move(row));
      }
  }
  if (o.json) print_json(rows, link.name);
}

}  // namespace

void add_bench_swap(CLI::App& bench) {
  auto o = std::make_shared<BenchSwapOptions>();
  CLI::App* cmd = bench.add_subcommand("swap", "Benchmark the swap planners on traces (simulated)");
  cmd->add_option("traces", o->traces, "Trace files (e.g. from tidepool synth)");
  cmd->add_option("--link", o->link, "pcie4, pcie5, nvlink-c2c, or a bandwidth in GB/s")->capture_default_str();
  cmd->add_option("--planner", o->planner, "paper, best or all")->capture_default_str();
  cmd->add_option("--slowdowns", o->slowdowns, "Allowed slowdowns in percent, comma-separated")->capture_default_str();
  cmd->add_flag("--json", o->json, "Print one JSON array of results");
  cmd->callback([o] { bench_swap(*o); });
}

}  // namespace tidepool::cli
