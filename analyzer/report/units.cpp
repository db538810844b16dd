// Byte and time units for text output.
#include "analyzer/report/units.h"

#include <array>
#include <cstdio>

namespace tidepool::report {

std::string human_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f %s", value, kUnits[unit]);
  return buffer;
}

std::string human_duration(uint64_t ns) {
  if (ns < 1000) return std::to_string(ns) + " ns";
  char buffer[32];
  const double v = static_cast<double>(ns);
  if (ns < 1000000) {
    std::snprintf(buffer, sizeof buffer, "%.3f us", v / 1e3);
  } else if (ns < 1000000000) {
    std::snprintf(buffer, sizeof buffer, "%.3f ms", v / 1e6);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.3f s", v / 1e9);
  }
  return buffer;
}

}  // namespace tidepool::report
