// Self-timing (TIDEPOOL_SELF_TIMING=1), for finding where tidepool's own cost sits on a real
// driver, where no profiler may be at hand: per hooked symbol, its calls, the time spent in the
// driver's function (the program's call, made once or more by the hook) and the time spent around
// it in tidepool, printed to stderr at exit, one line per symbol called, most costly first. Time in
// tidepool includes the driver calls tidepool makes of its own (events, context queries).
//
// Asked for, every exported symbol's slot points at a timed twin of its wrapper (exports.cpp): the
// untimed path has no check, no clock read and no counter.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tidepool::intercept {

// Driver time of the hook call in progress on this thread (the timed twins add to it).
inline thread_local uint64_t t_driver_ns = 0;

// Adds one call of the hook of row `index`.
void add_self_timing(std::size_t index, uint64_t total_ns, uint64_t driver_ns);

// Prints the lines (registered with atexit when self-timing is on).
void print_self_timing();

}  // namespace tidepool::intercept
