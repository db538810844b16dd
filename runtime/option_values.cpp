// Parsing the optimizer's setting values.
#include "runtime/option_values.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace tidepool::runtime {

std::optional<OptimizeModes> parse_optimize_modes(std::string_view text) {
  OptimizeModes modes;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view word = text.substr(0, comma);
    if (word == "pool" && !modes.pool) {
      modes.pool = true;
    } else if (word == "swap" && !modes.swap) {
      modes.swap = true;
    } else {
      return std::nullopt;
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
    if (text.empty()) return std::nullopt;  // a trailing comma
  }
  if (!modes.pool && !modes.swap) return std::nullopt;
  return modes;
}

std::optional<uint64_t> parse_byte_count(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end == text.data()) return std::nullopt;
  const std::string_view suffix(end, static_cast<size_t>(text.data() + text.size() - end));
  unsigned shift = 0;
  if (suffix == "K")
    shift = 10;
  else if (suffix == "M")
    shift = 20;
  else if (suffix == "G")
    shift = 30;
  else if (suffix == "T")
    shift = 40;
  else if (!suffix.empty())
    return std::nullopt;
  if (value == 0 || value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

std::optional<double> parse_percent(std::string_view text) {
  // std::from_chars for double is not in every standard library the project builds with.
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size() || !std::isfinite(value) || value < 0)
    return std::nullopt;
  return value;
}

uint64_t default_pinned_limit_bytes() {
  constexpr uint64_t kCeiling = uint64_t{16} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_bytes = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_bytes <= 0) return kCeiling;
  return std::min(kCeiling, static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_bytes) / 2);
}

}  // namespace tidepool::runtime
