// The optimizer's flags of `tidepool run` (--optimize[=pool,swap], --budget, --max-slowdown,
// --plan, --plan-cache, --pinned-limit, --link): checked before the program starts (a bad value
// is a one-line usage error) and handed to libtidepool.so as TIDEPOOL_* variables.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace tidepool::cli {

struct OptimizeFlags {
  std::string optimize;  // "" when not given; "true" for --optimize alone (pool,swap)
  std::string budget;
  std::string max_slowdown;
  std::string plan;
  std::string plan_cache;
  std::string pinned_limit;
  std::string link;
};

void add_optimize_flags(CLI::App& run, OptimizeFlags& flags);

// Throws UsageError for a bad value; sets the TIDEPOOL_* variables of the flags given.
void export_optimize_flags(const OptimizeFlags& flags);

}  // namespace tidepool::cli
