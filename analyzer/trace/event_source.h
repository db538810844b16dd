// The events an analysis looks at once each, in sequence order: a Trace in memory, or a trace
// file read in order (in_order.h) without holding its events. Analyses written against it (the
// report's figures, the event stream of iteration detection, the swap model) run on either, so
// tools read long traces from their files and tests hand over traces they built.
#pragma once

#include <cstdint>
#include <functional>

#include "analyzer/trace/in_order.h"
#include "analyzer/trace/trace.h"

namespace tidepool::trace {

class EventSource {
 public:
  using Visit = std::function<void(const Event& event, uint64_t index)>;

  // Implicit: wherever a source is asked for, a Trace or a reader will do. Either must outlive it.
  EventSource(const Trace& trace) : trace_(&trace) {}  // NOLINT(google-explicit-constructor)
  EventSource(const InOrderReader& reader)
      : reader_(&reader) {}  // NOLINT(google-explicit-constructor)

  // The header, modules, stacks, strings and truncated flag (the reader's hold no events).
  const Trace& tables() const { return reader_ ? reader_->trace() : *trace_; }
  // How many events the trace holds.
  uint64_t events() const { return reader_ ? reader_->events() : trace_->events.size(); }

  // Calls visit for each event whose tag is wanted and whose index in Trace::events (as read_trace
  // gives it) is below `end`, in sequence order, with that index. A reader decodes only the wanted
  // ones, and reads no further than it must to hand over those below `end`.
  void read(const InOrderReader::Wanted& wanted, const Visit& visit,
            uint64_t end = UINT64_MAX) const;

  // Whether any event's tag is wanted (a reader answers without a pass over the file).
  bool any(const InOrderReader::Wanted& wanted) const;

 private:
  const Trace* trace_ = nullptr;
  const InOrderReader* reader_ = nullptr;
};

}  // namespace tidepool::trace
