// Reads a trace file (or bytes) into a Trace. Errors are TraceError with one line:
// "not a tidepool trace", "unsupported version N", "corrupt chunk at offset X", ...
// A file truncated anywhere reads up to its last whole record and sets Trace::truncated.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>

#include "analyzer/trace/trace.h"

namespace tidepool::trace {

struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Which events a read keeps: called once per event in file order, which is not sequence order
// (each thread's events reach the file in its own chunks); an event it returns false for is left
// out (and may have been moved from). Header, modules, stacks and strings are always kept.
using EventFilter = std::function<bool(Event&)>;

// Messages are prefixed with the path: "run.tpt: corrupt chunk at offset 4096". The file is read
// a chunk at a time: the memory it takes is what is kept, so a filter bounds it.
Trace read_trace(const std::filesystem::path& path, const EventFilter& keep = {});
Trace parse_trace(std::span<const uint8_t> bytes);

}  // namespace tidepool::trace
