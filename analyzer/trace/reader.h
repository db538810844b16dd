// Reads a trace file (or bytes) into a Trace. Errors are TraceError with one line:
// "not a tidepool trace", "unsupported version N", "corrupt chunk at offset X", ...
// A file truncated anywhere reads up to its last whole record and sets Trace::truncated.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>

#include "analyzer/trace/trace.h"

namespace tidepool::trace {

struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Messages are prefixed with the path: "run.tpt: corrupt chunk at offset 4096".
Trace read_trace(const std::filesystem::path& path);
Trace parse_trace(std::span<const uint8_t> bytes);

}  // namespace tidepool::trace
