// The part of a trace the runtime plans from after it went back to recording: the events after a
// cut (a sequence number), preceded by the Alloc records of the plannable allocations still live
// at the cut, in allocation order, so that "program" ordinals count those first, as the runtime
// renumbers them at the cut.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "analyzer/trace/trace.h"

namespace tidepool::runtime::optimize {

struct TraceWindow {
  trace::Trace trace;
  uint64_t carried_allocations = 0;  // Alloc records carried over from before the cut
};

// Reads the window of the trace file at `path` after `after_seq` (0: the whole trace), again and
// again while the program writes it: each read() decodes only the chunks written since the last
// (trace::TraceFollower), so the planning attempts after one cut read each byte once. Of the events
// before the cut only the live allocations are kept, so however long the program ran before the
// cut, the memory this takes is that of the window.
class WindowReader {
 public:
  WindowReader(const std::filesystem::path& path, uint64_t after_seq);
  ~WindowReader();
  WindowReader(const WindowReader&) = delete;
  WindowReader& operator=(const WindowReader&) = delete;

  // Whether this reader reads the window of that file after that cut.
  bool reads(const std::filesystem::path& path, uint64_t after_seq) const;
  // The window as far as the file has been written. Throws trace::TraceError.
  TraceWindow read();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The window as the file stands now, read once.
TraceWindow read_window(const std::filesystem::path& path, uint64_t after_seq);

}  // namespace tidepool::runtime::optimize
