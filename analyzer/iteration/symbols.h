// Each event as a 64-bit symbol: its kind plus what identifies it (allocation size, kernel name,
// transfer kind and size). Equal events give equal symbols in any trace of any run.
#pragma once

#include <cstdint>
#include <vector>

#include "analyzer/iteration/event_stream.h"

namespace tidepool::iteration {

std::vector<std::uint64_t> symbols(const EventStream& stream);

}  // namespace tidepool::iteration
