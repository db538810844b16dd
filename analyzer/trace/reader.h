// Reads a trace file (or bytes) into a Trace. Errors are TraceError with one line:
// "not a tidepool trace", "unsupported version N", "corrupt chunk at offset X", ...
// A file truncated anywhere reads up to its last whole record and sets Trace::truncated.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
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

// Which events a read need not decode at all, told by their record tag and sequence number alone
// (far cheaper than decoding them for an EventFilter to drop): a skipped event is never seen, and
// its body is not checked.
using EventSkip = std::function<bool(RecordTag tag, uint64_t seq)>;

// Whether a read has what it wants: asked before each chunk, and once it says so the rest of the
// file is left unread (as if it ended there, but not counted as truncated).
using ReadDone = std::function<bool()>;

// Messages are prefixed with the path: "run.tpt: corrupt chunk at offset 4096". The file is read
// a chunk at a time: the memory it takes is what is kept, so a filter bounds it.
Trace read_trace(const std::filesystem::path& path, const EventFilter& keep = {},
                 const EventSkip& skip = {}, const ReadDone& done = {});
Trace parse_trace(std::span<const uint8_t> bytes);

// Follows a trace file that a running program is still writing: each read_more() decodes the
// chunks completed since the last call (a chunk still being written waits for the next one), so a
// reader that comes back again and again reads each byte once. The events kept are appended to
// trace().events in file order (not sorted); the header, modules, stacks and strings are kept as
// read_trace keeps them (a file that does not hold its header's chunk yet is read as nothing yet).
// Errors are read_trace's, prefixed by the path.
class TraceFollower {
 public:
  TraceFollower(const std::filesystem::path& path, EventFilter keep, EventSkip skip = {});
  ~TraceFollower();
  TraceFollower(const TraceFollower&) = delete;
  TraceFollower& operator=(const TraceFollower&) = delete;

  void read_more();
  const Trace& trace() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace tidepool::trace
