// Reads the TIDEPOOL_* environment variables once.
#include "runtime/settings.h"

#include <cstdlib>
#include <string_view>

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

}  // namespace

Settings read_settings(const char* (*lookup)(const char* name)) {
  Settings s;
  s.disabled = flag(lookup("TIDEPOOL_DISABLE"), false);
  s.output_dir = text(lookup("TIDEPOOL_OUTPUT_DIR"), ".");
  s.overwrite = flag(lookup("TIDEPOOL_FORCE"), false);
  s.stacks = flag(lookup("TIDEPOOL_STACKS"), true);
  s.device_timing = flag(lookup("TIDEPOOL_DEVICE_TIMING"), true);
  s.cupti = flag(lookup("TIDEPOOL_CUPTI"), false);
  s.real_libcuda = text(lookup("TIDEPOOL_REAL_LIBCUDA"), "");
  for (const char* name : {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (const char* v = lookup(name); v != nullptr && *v != '\0') {
      s.rank = v;
      break;
    }
  }
  return s;
}

const Settings& settings() {
  static const Settings instance = read_settings([](const char* name) -> const char* { return std::getenv(name); });
  return instance;
}

}  // namespace tidepool::runtime
