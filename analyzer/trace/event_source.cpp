// Events from a Trace or from a file read in order (see event_source.h).
#include "analyzer/trace/event_source.h"

#include <array>

namespace tidepool::trace {

void EventSource::read(const InOrderReader::Wanted& wanted, const Visit& visit) const {
  if (reader_) {
    reader_->read(wanted, [&](Event&& event, uint64_t index) { visit(event, index); });
    return;
  }
  std::array<bool, 256> wants{};  // asked once per tag, as the reader does
  for (size_t t = 0; t < wants.size(); ++t) wants[t] = wanted(static_cast<RecordTag>(t));
  for (size_t i = 0; i < trace_->events.size(); ++i) {
    const Event& event = trace_->events[i];
    const auto tag = static_cast<uint32_t>(tag_of(event.record));
    if (tag < wants.size() && wants[tag]) visit(event, i);
  }
}

}  // namespace tidepool::trace
