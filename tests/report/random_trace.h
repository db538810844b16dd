// Test helper: odd but well-formed traces, drawn from a seed. Every record type appears, with its
// fields drawn from small pools (allocation ids, addresses, sizes, streams, kernel names), so that
// records refer to one another as a program's do, and now and then a value at the edges of its
// type; most traces repeat a body of events (fresh allocations each time) so that iteration
// detection and the planners get to work on them. For the tests that odd input fails cleanly.
#pragma once

#include <cstdint>

#include "analyzer/trace/trace.h"

namespace tidepool::report::testing {

trace::Trace random_trace(std::uint64_t seed);

}  // namespace tidepool::report::testing
