// Human-readable byte counts and durations for the text report.
#pragma once

#include <cstdint>
#include <string>

namespace tidepool::report {

// "512 B", "1.50 KiB", "12.00 MiB", "1.50 GiB" (powers of 1024, two decimals).
std::string human_bytes(uint64_t bytes);
// "0 ns", "850 ns", "12.346 us", "3.500 ms", "1.234 s".
std::string human_duration(uint64_t ns);

}  // namespace tidepool::report
