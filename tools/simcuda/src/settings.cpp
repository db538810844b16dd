// Reads the SIMCUDA_* environment variables once.
#include "tools/simcuda/src/settings.h"

#include <cstdlib>
#include <limits>

namespace simcuda {

bool parse_bytes(const std::string& text, uint64_t& bytes) {
  if (text.empty()) return false;
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return false;
  unsigned shift = 0;
  const std::string suffix = text.substr(digits);
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (!suffix.empty()) return false;
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    if (value > (std::numeric_limits<uint64_t>::max() - 9) / 10) return false;
    value = value * 10 + static_cast<uint64_t>(text[i] - '0');
  }
  if (value > (std::numeric_limits<uint64_t>::max() >> shift)) return false;
  bytes = value << shift;
  return true;
}

namespace {

Settings read_settings() {
  Settings s;
  if (const char* memory = std::getenv("SIMCUDA_MEMORY")) {
    if (!parse_bytes(memory, s.memory_bytes) || s.memory_bytes == 0 || s.memory_bytes > (1ull << 40))
      s.error = std::string("bad SIMCUDA_MEMORY='") + memory + "' (want bytes with an optional K/M/G suffix, at most 1T)";
  }
  if (const char* gbps = std::getenv("SIMCUDA_LINK_GBPS")) {
    char* end = nullptr;
    s.link_gbps = std::strtod(gbps, &end);
    if (end == gbps || *end != '\0' || !(s.link_gbps > 0) || s.link_gbps > 1e6)
      s.error = std::string("bad SIMCUDA_LINK_GBPS='") + gbps + "' (want a positive number of GB/s)";
  }
  if (const char* stats = std::getenv("SIMCUDA_STATS")) s.stats_path = stats;
  return s;
}

}  // namespace

const Settings& settings() {
  static const Settings instance = read_settings();
  return instance;
}

}  // namespace simcuda
