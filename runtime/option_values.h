// The values of the optimizer's settings, parsed one way for the TIDEPOOL_* variables the
// preloaded library reads and for the `tidepool run` flags that set them. Each parser returns
// nullopt for text it does not accept; `what_is_expected` says what it wanted, for one-line errors.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tidepool::runtime {

struct OptimizeModes {
  bool pool = false;
  bool swap = false;
  bool operator==(const OptimizeModes&) const = default;
};

// "pool", "swap", "pool,swap" or "swap,pool".
std::optional<OptimizeModes> parse_optimize_modes(std::string_view text);
inline constexpr std::string_view kOptimizeModesExpected = "pool, swap or pool,swap";

// A byte count: digits with an optional K, M, G or T suffix (powers of 1024), at least 1.
std::optional<uint64_t> parse_byte_count(std::string_view text);
inline constexpr std::string_view kByteCountExpected =
    "a positive byte count (optionally with K, M, G or T)";

// A percentage: a finite number >= 0.
std::optional<double> parse_percent(std::string_view text);
inline constexpr std::string_view kPercentExpected = "a percentage >= 0";

// The pinned host memory limit when none is given: min(16 GiB, half of the host's memory).
uint64_t default_pinned_limit_bytes();

}  // namespace tidepool::runtime
