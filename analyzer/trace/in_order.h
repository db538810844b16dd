// Reads a trace file's events in sequence order without holding the whole trace: for analyses
// that look at every event once, in order (a replay, a conversion), on traces larger than memory
// would hold as a Trace (about 130 bytes an event, more for launches).
//
// The first pass (the constructor) decodes no event: it reads the header, modules, stacks and
// strings, and notes each event's record tag by its sequence number, in pages of 256 numbers
// (about 1.2 bytes an event while the numbers are dense, as a recorder's counter makes them; a
// page each where they are far apart). Each read() is one more pass that decodes only the events
// whose tag it wants and hands them over in sequence order, holding back only those that reach
// the file ahead of an earlier wanted one (each thread's events come in their own chunks). Each
// comes with its index: its place among all the trace's events in sequence order, the index
// read_trace() would give it in Trace::events. Sequence numbers are unique in a trace; an event
// whose number another has is counted and indexed as that one.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "analyzer/trace/trace.h"

namespace tidepool::trace {

// Which record tags a read wants, asked once per tag value: every event tag is below 255
// (in_order.cpp checks), so a tag at or above it is never wanted.
class WantedTags {
 public:
  explicit WantedTags(const std::function<bool(RecordTag tag)>& wanted);
  bool operator()(RecordTag tag) const {
    const auto value = static_cast<uint32_t>(tag);
    return value < wants_.size() && wants_[value];
  }

 private:
  std::array<bool, 255> wants_{};
};

class InOrderReader {
 public:
  using Wanted = std::function<bool(RecordTag tag)>;
  using Visit = std::function<void(Event&& event, uint64_t index)>;

  // Throws TraceError as read_trace does (one line, prefixed by the path).
  explicit InOrderReader(std::filesystem::path path);

  // The header, modules, stacks, strings and truncated flag; no events.
  const Trace& trace() const { return trace_; }
  uint64_t events() const { return events_; }

  // Only the events whose index is below `end` are handed over; with an end given, the read stops
  // where none of the wanted events the first pass saw is left below it (the peak's replay reads
  // no further than the peak). Without one, events that reach the file after the first pass (a
  // file still being written) are handed over too, in sequence order among themselves, their
  // index the place they would take among those the first pass saw.
  void read(const Wanted& wanted, const Visit& visit, uint64_t end = UINT64_MAX) const;

  // Whether the first pass saw an event whose tag is wanted (no pass over the file).
  bool any(const Wanted& wanted) const;

 private:
  // The tags of sequence numbers [number * 256, number * 256 + 256); kAbsent where no event has it.
  struct Page {
    static constexpr uint8_t kAbsent = 0xff;
    uint64_t number = 0;
    uint64_t below = 0;                 // events in the pages before
    std::array<uint64_t, 4> present{};  // a bit per number that an event has
    std::array<uint8_t, 256> tags;
    Page() { tags.fill(kAbsent); }
    // Events in this page numbered below slot.
    uint64_t events_below(size_t slot) const;
  };

  // The index read_trace() would give the event numbered seq; `hint` is a page at or before its
  // own.
  uint64_t index_of(uint64_t seq, size_t& hint) const;

  std::filesystem::path path_;
  Trace trace_;
  std::vector<Page> pages_;  // ascending by number
  uint64_t events_ = 0;
};

}  // namespace tidepool::trace
