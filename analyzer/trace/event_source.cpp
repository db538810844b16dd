// Events from a Trace or from a file read in order (see event_source.h).
#include "analyzer/trace/event_source.h"

#include <algorithm>

namespace tidepool::trace {

void EventSource::read(const InOrderReader::Wanted& wanted, const Visit& visit,
                       uint64_t end) const {
  if (reader_) {
    reader_->read(
        wanted, [&](Event&& event, uint64_t index) { visit(event, index); }, end);
    return;
  }
  const WantedTags wants(wanted);
  for (size_t i = 0; i < trace_->events.size() && i < end; ++i) {
    const Event& event = trace_->events[i];
    if (wants(tag_of(event.record))) visit(event, i);
  }
}

bool EventSource::any(const InOrderReader::Wanted& wanted) const {
  if (reader_) return reader_->any(wanted);
  const WantedTags wants(wanted);
  return std::any_of(trace_->events.begin(), trace_->events.end(),
                     [&](const Event& event) { return wants(tag_of(event.record)); });
}

}  // namespace tidepool::trace
