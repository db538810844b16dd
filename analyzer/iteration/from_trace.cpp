// Trace → EventStream.
#include "analyzer/iteration/from_trace.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <variant>

namespace tidepool::iteration {
namespace {

bool plannable(trace::AllocKind kind) {
  using K = trace::AllocKind;
  return kind == K::device || kind == K::device_pitched || kind == K::stream_ordered || kind == K::pool;
}

struct Live {
  std::uint64_t bytes;
  std::uint64_t context;
};

// The records a stream is made from.
bool converted(trace::RecordTag tag) {
  using T = trace::RecordTag;
  return tag == T::alloc || tag == T::free || tag == T::context_destroy || tag == T::launch ||
         tag == T::graph_launch || tag == T::copy || tag == T::set || tag == T::range_push;
}

// Takes the trace's events in sequence order; names come from `tables` (its string table).
class Converter {
 public:
  // `events`: how many the trace holds, about one stream event each at most (a context's
  // destruction gives one per allocation it held); reserved at once, since growing holds the old
  // and the new storage together.
  Converter(const trace::Trace& tables, std::size_t events) : tables_(tables) {
    out_.events.reserve(events);
  }

  void add(const trace::Event& event, std::size_t index) {
    source_ = index;
    std::visit([this](const auto& r) { on(r); }, event.record);
  }
  EventStream finish() { return std::move(out_); }

 private:
  void on(const trace::Alloc& r) {
    if (r.captured || !plannable(r.kind)) return;  // a graph's memory node is no allocation now
    live_[r.alloc_id] = {r.size, r.context};
    out_.events.push_back(
        {.kind = EventKind::alloc, .allocation = r.alloc_id, .bytes = r.size, .source = source_});
  }
  void on(const trace::Free& r) {
    if (r.captured) return;
    const auto it = live_.find(r.alloc_id);
    if (it == live_.end()) return;  // not a plannable allocation (or already freed by its context)
    out_.events.push_back({.kind = EventKind::free,
                           .allocation = r.alloc_id,
                           .bytes = it->second.bytes,
                           .source = source_});
    live_.erase(it);
  }
  void on(const trace::ContextDestroy& r) {
    std::vector<std::uint64_t> freed;
    for (const auto& [id, live] : live_)
      if (live.context == r.context) freed.push_back(id);
    std::sort(freed.begin(), freed.end());  // allocation order, independent of the hash map
    for (std::uint64_t id : freed) on(trace::Free{id, trace::AllocKind::device, 0});
  }
  void on(const trace::Launch& r) {
    if (r.captured) return;
    out_.events.push_back({.kind = EventKind::launch,
                           .name = name(std::string(tables_.string(r.kernel_name_id))),
                           .source = source_});
  }
  void on(const trace::GraphLaunch&) {
    out_.events.push_back({.kind = EventKind::launch, .name = name("<graph>"), .source = source_});
  }
  void on(const trace::Copy& r) {
    if (r.captured) return;
    out_.events.push_back({.kind = EventKind::transfer,
                           .name = name(std::string(trace::to_string(r.kind))),
                           .bytes = r.bytes,
                           .source = source_});
  }
  void on(const trace::Set& r) {
    if (r.captured) return;
    out_.events.push_back(
        {.kind = EventKind::transfer, .name = name("memset"), .bytes = r.bytes, .source = source_});
  }
  void on(const trace::RangePush& r) {
    out_.marks.push_back({out_.events.size(), name(std::string(tables_.string(r.name_id)))});
  }
  template <class Other>
  void on(const Other&) {}

  std::uint32_t name(const std::string& text) {
    const auto [it, added] = names_.try_emplace(text, static_cast<std::uint32_t>(out_.names.size()));
    if (added) out_.names.push_back(text);
    return it->second;
  }

  const trace::Trace& tables_;
  EventStream out_;
  std::unordered_map<std::uint64_t, Live> live_;
  std::unordered_map<std::string, std::uint32_t> names_;
  std::size_t source_ = 0;
};

}  // namespace

EventStream event_stream(const trace::EventSource& source) {
  Converter converter(source.tables(), source.events());
  source.read(converted,
              [&](const trace::Event& event, std::uint64_t index) { converter.add(event, index); });
  return converter.finish();
}

}  // namespace tidepool::iteration
