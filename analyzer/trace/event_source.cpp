// Events from a Trace or from a file read in order (see event_source.h).
#include "analyzer/trace/event_source.h"

namespace tidepool::trace {

void EventSource::read(const InOrderReader::Wanted& wanted, const Visit& visit) const {
  if (reader_) {
    reader_->read(wanted, [&](Event&& event, uint64_t index) { visit(event, index); });
    return;
  }
  const WantedTags wants(wanted);
  for (size_t i = 0; i < trace_->events.size(); ++i) {
    const Event& event = trace_->events[i];
    if (wants(tag_of(event.record))) visit(event, i);
  }
}

}  // namespace tidepool::trace
