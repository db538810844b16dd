// `tidepool bench overhead [--launches N] [--pairs N] [--steps N] [--repeat R] [--baseline LIB]`:
// the time libtidepool.so adds per cuLaunchKernel (8 pointer parameters) and per
// cuMemAlloc/cuMemFree pair on simcuda. One run times the same probe program without tidepool,
// and with it (stacks off, stacks on, and stacks off without device timing), best of R runs each,
// and prints the differences. --baseline also times another libtidepool.so (an older build) in
// the same run, configurations interleaved, so that before and after are measured under the same
// load. A second table times the allocations and frees of a repeating loop that
// `--optimize=pool` serves from its plan (the fast path), next to the same loop without tidepool
// and with tidepool only recording (and the --baseline library's --optimize=pool), and says which
// share of the allocations the plan served. The machine's load average is printed too: the
// figures are CPU times of the calling thread, but a loaded machine still slows them down.
#include <CLI/CLI.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "commands.h"
#include "analyzer/trace/reader.h"
#include "install_paths.h"
#include "shell_quote.h"

namespace tidepool::cli {
namespace {

namespace fs = std::filesystem;

struct OverheadOptions {
  long launches = 200000;
  long pairs = 200000;
  long steps = 20000;  // of the repeating loop (4 allocations and 4 frees each)
  int repeat = 3;
  std::string baseline;  // another libtidepool.so to time in the same run
};

struct Timing {
  std::string kernel;
  int pointers = 0;
  double launch_ns = std::numeric_limits<double>::max();
  double pair_ns = std::numeric_limits<double>::max();
  double step_alloc_ns = std::numeric_limits<double>::max();  // the repeating loop's calls, CPU time
  double step_free_ns = std::numeric_limits<double>::max();
  double step_alloc_wall_ns = std::numeric_limits<double>::max();  // the same by the wall clock
  double step_free_wall_ns = std::numeric_limits<double>::max();
};

struct Config {
  std::string label;
  bool preload;
  bool stacks;
  bool device_timing;
  std::string library;  // empty: this build's libtidepool.so
  bool optimize_pool = false;
};

// What the probe times: the launch and pair loops, or the repeating loop only.
enum class Probe { launches_and_pairs, repeating_loop };

// Runs the probe once in the given configuration; its traces go to a scratch directory (and
// plans, under --optimize, to a plan cache there that starts empty).
Timing run_probe(const Config& config, Probe probe, const OverheadOptions& options, const fs::path& scratch) {
  const InstallPaths paths = install_paths();
  if (!fs::exists(paths.overhead_probe)) throw std::runtime_error("cannot find " + paths.overhead_probe.string());
  std::string command = "LD_LIBRARY_PATH=" + shell_quoted(require_simcuda_dir().string());
  if (config.preload) {
    const std::string library = config.library.empty() ? require_preload_library().string() : config.library;
    command += " LD_PRELOAD=" + shell_quoted(library) + " TIDEPOOL_OUTPUT_DIR=" +
               shell_quoted(scratch.string()) + " TIDEPOOL_FORCE=1 TIDEPOOL_STACKS=" + (config.stacks ? "1" : "0") +
               " TIDEPOOL_DEVICE_TIMING=" + (config.device_timing ? "1" : "0");
    if (config.optimize_pool) {
      const fs::path cache = scratch / "plans";
      fs::remove_all(cache);
      command += " TIDEPOOL_OPTIMIZE=pool TIDEPOOL_PLAN_CACHE=" + shell_quoted(cache.string());
    }
  }
  const bool loop = probe == Probe::repeating_loop;
  command += " " + shell_quoted(paths.overhead_probe.string()) + " " + std::to_string(loop ? 0 : options.launches) + " " +
             std::to_string(loop ? 0 : options.pairs) + " " + std::to_string(loop ? options.steps : 0);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) throw std::runtime_error("cannot run the overhead probe");
  char kernel[128] = {};
  Timing t;
  const int fields = std::fscanf(out, "%127s %d %lf %lf %lf %lf %lf %lf", kernel, &t.pointers, &t.launch_ns,
                                 &t.pair_ns, &t.step_alloc_ns, &t.step_free_ns, &t.step_alloc_wall_ns,
                                 &t.step_free_wall_ns);
  const int status = pclose(out);
  if (fields != 8 || status != 0) throw std::runtime_error("the overhead probe failed (" + command + ")");
  t.kernel = kernel;
  return t;
}

// Best of R runs per configuration; each round runs every configuration once, so that a change in
// the machine's load touches all of them alike.
std::vector<Timing> best_of(const std::vector<Config>& configs, Probe probe, const OverheadOptions& options,
                            const fs::path& scratch) {
  std::vector<Timing> best(configs.size());
  for (int i = 0; i < options.repeat; ++i) {
    for (size_t c = 0; c < configs.size(); ++c) {
      const Timing t = run_probe(configs[c], probe, options, scratch);
      best[c].kernel = t.kernel;
      best[c].pointers = t.pointers;
      best[c].launch_ns = std::min(best[c].launch_ns, t.launch_ns);
      best[c].pair_ns = std::min(best[c].pair_ns, t.pair_ns);
      best[c].step_alloc_ns = std::min(best[c].step_alloc_ns, t.step_alloc_ns);
      best[c].step_free_ns = std::min(best[c].step_free_ns, t.step_free_ns);
      best[c].step_alloc_wall_ns = std::min(best[c].step_alloc_wall_ns, t.step_alloc_wall_ns);
      best[c].step_free_wall_ns = std::min(best[c].step_free_wall_ns, t.step_free_wall_ns);
    }
  }
  return best;
}

// The share of the program's device allocations that the plan served, from the traces of the
// --optimize runs left in the scratch directory (the last run's).
double served_share(const fs::path& scratch) {
  uint64_t allocations = 0, hits = 0;
  fs::path latest;
  for (const auto& entry : fs::directory_iterator(scratch)) {
    if (entry.path().extension() == ".tpt" &&
        (latest.empty() || fs::last_write_time(entry.path()) > fs::last_write_time(latest)))
      latest = entry.path();
  }
  if (latest.empty()) return 0;
  for (const trace::Event& e : trace::read_trace(latest).events) {
    if (const auto* a = std::get_if<trace::Alloc>(&e.record); a != nullptr && a->kind == trace::AllocKind::device)
      ++allocations;
    if (std::holds_alternative<trace::PoolHit>(e.record)) ++hits;
  }
  return allocations == 0 ? 0 : static_cast<double>(hits) / static_cast<double>(allocations);
}

// "1.23 0.98 0.75": the load averages over 1, 5 and 15 minutes, or "unknown".
std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  return one + " " + five + " " + fifteen;
}

// The repeating loop without tidepool, recorded only, and served from the plan.
void bench_served_from_plan(const OverheadOptions& options, const fs::path& scratch) {
  std::vector<Config> configs = {
      {"without tidepool", false, false, false, ""},
      {"tidepool recording, stacks off", true, false, true, ""},
  };
  if (!options.baseline.empty()) {
    configs.push_back({"baseline --optimize=pool, stacks off", true, false, true, options.baseline, true});
  }
  // Last in each round: the served share is read from the last run's trace.
  configs.push_back({"tidepool --optimize=pool, stacks off", true, false, true, "", true});
  for (const auto& entry : fs::directory_iterator(scratch)) fs::remove_all(entry.path());
  const std::vector<Timing> timings = best_of(configs, Probe::repeating_loop, options, scratch);
  const double share = served_share(scratch);
  std::printf("\nthe fast path: a loop of %ld steps (4 allocations of 0.5-3 MiB, one launch, 4 frees), only the allocation "
              "and free calls timed, fastest window of 256 steps; windows alternate between the thread's CPU time "
              "(its clock is a system call, made every 4 calls) and the wall clock (vDSO, no system call)\n",
              options.steps);
  std::printf("%-40s %14s %14s %14s %14s\n", "", "ns/alloc cpu", "ns/free cpu", "ns/alloc wall", "ns/free wall");
  for (size_t i = 0; i < timings.size(); ++i) {
    std::printf("%-40s %14.1f %14.1f %14.1f %14.1f\n", configs[i].label.c_str(), timings[i].step_alloc_ns,
                timings[i].step_free_ns, timings[i].step_alloc_wall_ns, timings[i].step_free_wall_ns);
  }
  const Timing& served = timings.back();
  std::printf("served from the plan: %.1f%% of the allocations (last --optimize run's trace); load average now: %s\n",
              100 * share, load_average().c_str());
  const auto verdict = [&](double ns) { return share > 0.9 && ns < 200 ? "met" : "missed"; };
  std::printf("target: < 200 ns per allocation served from the plan (CPU time: %s; wall clock: %s)\n",
              verdict(served.step_alloc_ns), verdict(served.step_alloc_wall_ns));
}

void bench_overhead(const OverheadOptions& options) {
  if (options.launches <= 0 || options.pairs <= 0 || options.steps <= 0 || options.repeat <= 0) {
    throw std::runtime_error("bench overhead: --launches, --pairs, --steps and --repeat must be positive");
  }
  std::string scratch = (fs::temp_directory_path() / "tidepool-bench-overhead-XXXXXX").string();
  if (mkdtemp(scratch.data()) == nullptr) throw std::runtime_error("cannot create a scratch directory");
  std::vector<Config> configs = {
      {"without tidepool", false, false, false, ""},
      {"tidepool, stacks off", true, false, true, ""},
      {"tidepool, stacks on", true, true, true, ""},
      {"tidepool, stacks off, no device timing", true, false, false, ""},
  };
  if (!options.baseline.empty()) {
    configs.push_back({"baseline, stacks off", true, false, true, options.baseline});
    configs.push_back({"baseline, stacks off, no device timing", true, false, false, options.baseline});
  }
  const std::string load_at_start = load_average();
  std::vector<Timing> timings;
  try {
    timings = best_of(configs, Probe::launches_and_pairs, options, scratch);
  } catch (...) {
    fs::remove_all(scratch);
    throw;
  }
  const Timing& base = timings.front();
  std::printf("load average (1, 5, 15 min) before the runs: %s\n", load_at_start.c_str());
  std::printf("tidepool bench overhead: simcuda, kernel %s (%d pointer parameters), %ld launches, %ld alloc/free pairs, best of %d\n",
              base.kernel.c_str(), base.pointers, options.launches, options.pairs, options.repeat);
  std::printf("times are CPU time of the calling thread per call (tidepool's background writer thread not included)\n");
  if (base.pointers != 8) {
    std::printf("note: this simcuda has no 8-pointer benchmark twin (tidepool_bench_pointers8); the launch figure is for %d pointers\n",
                base.pointers);
  }
  std::printf("%-40s %14s %10s %16s %10s\n", "", "ns/launch", "added", "ns/alloc+free", "added");
  for (size_t i = 0; i < timings.size(); ++i) {
    const Timing& t = timings[i];
    std::printf("%-40s %14.1f %10.1f %16.1f %10.1f\n", configs[i].label.c_str(), t.launch_ns, t.launch_ns - base.launch_ns,
                t.pair_ns, t.pair_ns - base.pair_ns);
  }
  const double launch_added = timings[1].launch_ns - base.launch_ns;
  const double pair_added = timings[1].pair_ns - base.pair_ns;
  std::printf("targets, stacks off: < 300 ns added per launch (%s), < 500 ns added per alloc+free pair (%s)\n",
              launch_added < 300 ? "met" : "missed", pair_added < 500 ? "met" : "missed");
  try {
    bench_served_from_plan(options, scratch);
  } catch (...) {
    fs::remove_all(scratch);
    throw;
  }
  fs::remove_all(scratch);
}

}  // namespace

void add_bench_overhead(CLI::App& bench) {
  auto options = std::make_shared<OverheadOptions>();
  CLI::App* cmd = bench.add_subcommand("overhead", "Time added per intercepted launch and alloc/free pair (simcuda)");
  cmd->add_option("--launches", options->launches, "Launches timed per run");
  cmd->add_option("--pairs", options->pairs, "Alloc/free pairs timed per run");
  cmd->add_option("--steps", options->steps, "Steps of the repeating loop served from a plan, per run");
  cmd->add_option("--repeat", options->repeat, "Runs per configuration (the best counts)");
  cmd->add_option("--baseline", options->baseline, "Another libtidepool.so (an older build) to time in the same run")
      ->check(CLI::ExistingFile);
  cmd->callback([options] { bench_overhead(*options); });
}

}  // namespace tidepool::cli
