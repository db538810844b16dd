// Reads the TIDEPOOL_* environment variables once.
#include "runtime/settings.h"

#include <cstdlib>
#include <string_view>

#include "runtime/option_values.h"

namespace tidepool::runtime {
namespace {

bool flag(const char* value, bool fallback) {
  if (value == nullptr || *value == '\0') return fallback;
  const std::string_view v{value};
  return !(v == "0" || v == "false" || v == "no" || v == "off");
}

std::string text(const char* value, std::string fallback) {
  return value != nullptr && *value != '\0' ? std::string{value} : fallback;
}

// $XDG_CACHE_HOME/tidepool, else ~/.cache/tidepool, else none.
std::string default_plan_cache(const char* (*lookup)(const char* name)) {
  if (const char* xdg = lookup("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/') return std::string{xdg} + "/tidepool";
  if (const char* home = lookup("HOME"); home != nullptr && *home == '/') return std::string{home} + "/.cache/tidepool";
  return "";
}

// Reads the optimizer's variables; the first bad one is kept in optimizer_error.
void read_optimizer_settings(Settings& s, const char* (*lookup)(const char* name)) {
  auto bad = [&s](const char* name, const char* value, std::string_view expected) {
    if (s.optimizer_error.empty())
      s.optimizer_error = std::string{name} + "='" + value + "': expected " + std::string{expected};
  };
  if (const char* v = lookup("TIDEPOOL_OPTIMIZE"); v != nullptr && *v != '\0') {
    if (const auto modes = parse_optimize_modes(v)) {
      s.optimize_pool = modes->pool;
      s.optimize_swap = modes->swap;
    } else {
      bad("TIDEPOOL_OPTIMIZE", v, kOptimizeModesExpected);
    }
  }
  if (const char* v = lookup("TIDEPOOL_BUDGET"); v != nullptr && *v != '\0') {
    s.budget_bytes = parse_byte_count(v);
    if (!s.budget_bytes) bad("TIDEPOOL_BUDGET", v, kByteCountExpected);
  }
  if (const char* v = lookup("TIDEPOOL_MAX_SLOWDOWN"); v != nullptr && *v != '\0') {
    const auto pct = parse_percent(v);
    if (pct) s.max_slowdown_pct = *pct;
    else bad("TIDEPOOL_MAX_SLOWDOWN", v, kPercentExpected);
  }
  s.pinned_limit_bytes = default_pinned_limit_bytes();
  if (const char* v = lookup("TIDEPOOL_PINNED_LIMIT"); v != nullptr && *v != '\0') {
    const auto limit = parse_byte_count(v);
    if (limit) s.pinned_limit_bytes = *limit;
    else bad("TIDEPOOL_PINNED_LIMIT", v, kByteCountExpected);
  }
  s.plan_path = text(lookup("TIDEPOOL_PLAN"), "");
  s.plan_cache = text(lookup("TIDEPOOL_PLAN_CACHE"), default_plan_cache(lookup));
  if (s.plan_cache == "off") s.plan_cache.clear();
  s.link = text(lookup("TIDEPOOL_LINK"), "pcie5");
}

}  // namespace

Settings read_settings(const char* (*lookup)(const char* name)) {
  Settings s;
  s.disabled = flag(lookup("TIDEPOOL_DISABLE"), false);
  s.output_dir = text(lookup("TIDEPOOL_OUTPUT_DIR"), ".");
  s.overwrite = flag(lookup("TIDEPOOL_FORCE"), false);
  s.stacks = flag(lookup("TIDEPOOL_STACKS"), true);
  s.device_timing = flag(lookup("TIDEPOOL_DEVICE_TIMING"), true);
  s.cupti = flag(lookup("TIDEPOOL_CUPTI"), false);
  s.self_timing = flag(lookup("TIDEPOOL_SELF_TIMING"), false);
  s.real_libcuda = text(lookup("TIDEPOOL_REAL_LIBCUDA"), "");
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* v = lookup(name); v != nullptr && *v != '\0') {
      s.rank = v;
      break;
    }
  }
  read_optimizer_settings(s, lookup);
  return s;
}

const Settings& settings() {
  static const Settings instance = read_settings([](const char* name) -> const char* { return std::getenv(name); });
  return instance;
}

}  // namespace tidepool::runtime
