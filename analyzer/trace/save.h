// Writes a whole in-memory Trace to a file (for tools that build traces offline, such as
// `tidepool synth`, and for tests): header, modules, strings and stacks, then the events.
#pragma once

#include <filesystem>

#include "analyzer/trace/trace.h"

namespace tidepool::trace {

// Throws TraceError (reader.h) with one line when the file cannot be created or written. An
// existing file is replaced.
void save_trace(const Trace& trace, const std::filesystem::path& path);

}  // namespace tidepool::trace
