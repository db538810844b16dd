// `tidepool report [--format text|json] [-o FILE] [--no-plans] [--solver-time S] [--link L]
// [--iteration-marker NVTX_NAME | --iteration-kernel NAME] TRACE...`:
// the memory report of one or more traces (one per process or rank), merged into one report with
// a row per process, each with its iteration and what the pool and swap planners make of it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "analyzer/report/analyze.h"
#include "analyzer/report/iteration_plans.h"
#include "analyzer/report/json_report.h"
#include "analyzer/report/text_report.h"
#include "analyzer/swap/link.h"
#include "analyzer/trace/in_order.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

struct ReportOptions {
  std::vector<std::string> traces;
  std::string format = "text";
  std::string output;
  bool no_plans = false;
  report::PlanOptions plans;
};

void run_report(const ReportOptions& options) {
  try {
    swap::parse_link(options.plans.link);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  std::vector<report::ProcessReport> processes;
  for (const std::string& path : options.traces) {
    const trace::InOrderReader reader(path);  // read a few times over, never held
    if (reader.trace().truncated) {
      std::fprintf(stderr, "tidepool: warning: %s is truncated; read up to its last whole record\n",
                   path.c_str());
    }
    processes.push_back(report::analyze(reader, path));
    if (!options.no_plans) processes.back().plans = report::analyze_plans(reader, options.plans);
  }
  std::stable_sort(processes.begin(), processes.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.pid < b.pid;
  });
  const std::string text = options.format == "json" ? report::json_report(processes)
                                                    : report::text_report(processes);
  if (options.output.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  std::ofstream out(options.output, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + options.output);
}

}  // namespace

void add_report(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand("report", "Report the memory use recorded in traces");
  cmd->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", options->output, "Write the report to FILE instead of stdout");
  cmd->add_flag("--no-plans", options->no_plans, "Leave out the iteration and plans section");
  cmd->add_option("--solver-time", options->plans.solver_seconds,
                  "Time limit of each pool solver in the plans section, seconds")
      ->check(CLI::Range(0.001, 3600.0))
      ->capture_default_str();
  cmd->add_option("--link", options->plans.link,
                  "Host link of the swap plans: pcie4, pcie5, nvlink-c2c or GB/s")
      ->capture_default_str();
  auto* marker = cmd->add_option("--iteration-marker", options->plans.iteration_marker,
                                 "In the plans section, each push of this NVTX range starts an iteration");
  auto* kernel = cmd->add_option("--iteration-kernel", options->plans.iteration_kernel,
                                 "In the plans section, each launch of this kernel starts an iteration");
  marker->excludes(kernel);
  cmd->add_option("traces", options->traces, "Trace files (one per process or rank)")
      ->required();
  cmd->callback([options] { run_report(*options); });
}

}  // namespace tidepool::cli
