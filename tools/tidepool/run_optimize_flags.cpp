// Checking and exporting the optimizer's flags of `tidepool run`.
#include "run_optimize_flags.h"

#include <stdlib.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <stdexcept>
#include <utility>

#include "analyzer/plan/plan_io.h"
#include "analyzer/swap/link.h"
#include "errors.h"
#include "runtime/option_values.h"

namespace tidepool::cli {
namespace {

void require(bool ok, const std::string& flag, const std::string& value,
             std::string_view expected) {
  if (!ok) throw UsageError("run: " + flag + " " + value + ": expected " + std::string(expected));
}

void export_variable(const char* name, const std::string& value) {
  if (!value.empty()) setenv(name, value.c_str(), 1);
}

}  // namespace

void add_optimize_flags(CLI::App& run, OptimizeFlags& flags) {
  // A string flag: given alone, CLI11 stores "true"; --optimize=MODES stores the modes.
  run.add_flag(
      "--optimize", flags.optimize,
      "Cut the program's peak memory: --optimize[=pool|swap|pool,swap] (alone: pool,swap)");
  run.add_option("--budget", flags.budget,
                 "Swap: the peak device memory to reach (bytes, or with K/M/G/T)");
  run.add_option("--max-slowdown", flags.max_slowdown,
                 "Swap: the lowest peak within this % of slowdown (default 0)");
  run.add_option("--plan", flags.plan,
                 "Enforce this plan (tidepool plan) instead of planning online");
  run.add_option("--plan-cache", flags.plan_cache,
                 "Directory of cached plans (default $XDG_CACHE_HOME/tidepool; off: none)");
  run.add_option(
      "--pinned-limit", flags.pinned_limit,
      "Pinned host memory for swapped buffers (bytes; default min(16G, half the host's memory))");
  run.add_option("--link", flags.link,
                 "Swap: pcie4, pcie5 (default), nvlink-c2c or a bandwidth in GB/s");
}

void export_optimize_flags(const OptimizeFlags& flags) {
  const bool optimizing = !flags.optimize.empty() || !flags.plan.empty();
  if (!optimizing) {
    const std::pair<const char*, const std::string*> given[] = {
        {"--budget", &flags.budget},
        {"--max-slowdown", &flags.max_slowdown},
        {"--plan-cache", &flags.plan_cache},
        {"--pinned-limit", &flags.pinned_limit},
        {"--link", &flags.link}};
    for (const auto& [flag, value] : given) {
      if (!value->empty())
        throw UsageError(std::string("run: ") + flag + " needs --optimize or --plan");
    }
    return;
  }
  const std::string modes = flags.optimize == "true" ? "pool,swap" : flags.optimize;
  if (!modes.empty()) {
    require(runtime::parse_optimize_modes(modes).has_value(), "--optimize", modes,
            runtime::kOptimizeModesExpected);
  }
  if (!flags.budget.empty() && !flags.max_slowdown.empty())
    throw UsageError("run: --budget and --max-slowdown exclude each other");
  if (!flags.budget.empty())
    require(runtime::parse_byte_count(flags.budget).has_value(), "--budget", flags.budget,
            runtime::kByteCountExpected);
  if (!flags.max_slowdown.empty()) {
    require(runtime::parse_percent(flags.max_slowdown).has_value(), "--max-slowdown",
            flags.max_slowdown, runtime::kPercentExpected);
  }
  if (!flags.pinned_limit.empty()) {
    require(runtime::parse_byte_count(flags.pinned_limit).has_value(), "--pinned-limit",
            flags.pinned_limit, runtime::kByteCountExpected);
  }
  if (!flags.link.empty()) {
    try {
      swap::parse_link(flags.link);
    } catch (const std::exception& e) {
      throw UsageError(std::string("run: --link: ") + e.what());
    }
  }
  std::string plan_path;
  if (!flags.plan.empty()) {
    try {
      plan::read_plan(flags.plan);  // a bad plan stops here, not inside the program
    } catch (const std::exception& e) {
      throw UsageError(std::string("run: --plan: ") + e.what());
    }
    plan_path = std::filesystem::absolute(flags.plan).string();
  }
  std::string cache = flags.plan_cache;
  if (!cache.empty() && cache != "off") cache = std::filesystem::absolute(cache).string();
  export_variable("TIDEPOOL_OPTIMIZE", modes);
  export_variable("TIDEPOOL_BUDGET", flags.budget);
  export_variable("TIDEPOOL_MAX_SLOWDOWN", flags.max_slowdown);
  export_variable("TIDEPOOL_PLAN", plan_path);
  export_variable("TIDEPOOL_PLAN_CACHE", cache);
  export_variable("TIDEPOOL_PINNED_LIMIT", flags.pinned_limit);
  export_variable("TIDEPOOL_LINK", flags.link);
}

}  // namespace tidepool::cli
