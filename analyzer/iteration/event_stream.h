// The program's memory-relevant events, abstracted from the trace: what iteration detection,
// lifetimes and fingerprints look at. Positions are indices into `events`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tidepool::iteration {

enum class EventKind : std::uint8_t {
  alloc,     // a device allocation: `allocation`, `bytes` (requested size)
  free,      // its release: `allocation`, `bytes` (the size it had)
  launch,    // a kernel launch: `name` (index into EventStream::names)
  transfer,  // a copy or a set: `bytes`, `name` (its kind, e.g. "HtoD", "memset")
};

// 32 bytes (kind and name share a word): a stream holds one per memory event and launch of the
// trace, millions on long traces.
struct Event {
  EventKind kind = EventKind::launch;
  std::uint32_t name = 0;
  std::uint64_t allocation = 0;
  std::uint64_t bytes = 0;
  std::size_t source = 0;  // index of the trace event it came from (trace::Trace::events)
};
static_assert(sizeof(Event) == 32);

// A named point in the stream (an NVTX range push): it precedes events[position].
struct Mark {
  std::size_t position = 0;
  std::uint32_t name = 0;
};

struct EventStream {
  std::vector<Event> events;
  std::vector<Mark> marks;
  std::vector<std::string> names;  // kernel, transfer and NVTX range names

  // The index of `name` in `names`, added when new (linear: for building small streams in tests
  // and for the handful of transfer kinds; trace conversion maps its string table once).
  std::uint32_t intern(const std::string& name);
};

// A half-open range of event positions [begin, end).
struct Range {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
  bool operator==(const Range&) const = default;
};

}  // namespace tidepool::iteration
