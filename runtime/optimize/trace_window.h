// The part of a trace the runtime plans from after it went back to recording: the events after a
// cut (a sequence number), preceded by the Alloc records of the plannable allocations still live
// at the cut, in allocation order, so that "program" ordinals count those first, as the runtime
// renumbers them at the cut.
#pragma once

#include <cstdint>
#include <filesystem>

#include "analyzer/trace/trace.h"

namespace tidepool::runtime::optimize {

struct TraceWindow {
  trace::Trace trace;
  uint64_t carried_allocations = 0;  // Alloc records carried over from before the cut
};

// Reads the window of the trace file at `path` after `after_seq` (0: the whole trace). Of the
// events before the cut only the live allocations are kept, so however long the program ran before
// the cut, the memory this takes is that of the window. Throws trace::TraceError.
TraceWindow read_window(const std::filesystem::path& path, uint64_t after_seq);

}  // namespace tidepool::runtime::optimize
