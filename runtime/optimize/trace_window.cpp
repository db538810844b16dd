// Cutting a trace at a sequence number while it is read.
#include "runtime/optimize/trace_window.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "analyzer/trace/reader.h"

namespace tidepool::runtime::optimize {
namespace {

bool plannable(trace::AllocKind kind) {
  using K = trace::AllocKind;
  return kind == K::device || kind == K::device_pitched || kind == K::stream_ordered ||
         kind == K::pool;
}

// The plannable allocations live at the cut, from the events at or before it in file order, which
// is not sequence order: a Free may come before its Alloc, and is then kept until the Alloc comes.
class LiveAtCut {
 public:
  void see(trace::Event&& e) {
    if (const auto* a = std::get_if<trace::Alloc>(&e.record)) {
      if (freed_early_.erase(a->alloc_id) == 0 && plannable(a->kind)) live_.emplace(a->alloc_id, std::move(e));
    } else if (const auto* f = std::get_if<trace::Free>(&e.record); f != nullptr && plannable(f->kind)) {
      if (live_.erase(f->alloc_id) == 0) freed_early_.insert(f->alloc_id);
    } else if (const auto* d = std::get_if<trace::ContextDestroy>(&e.record)) {
      destroyed_.emplace_back(d->context, e.seq);
    }
  }

  // The Alloc events of the allocations still live, in allocation order (by id): not freed, and
  // not in a context destroyed after they were made.
  std::vector<trace::Event> take() && {
    std::vector<trace::Event> live;
    for (auto& [id, e] : live_) {
      const auto& a = std::get<trace::Alloc>(e.record);
      const bool destroyed = std::any_of(destroyed_.begin(), destroyed_.end(), [&](const auto& d) {
        return d.first == a.context && d.second > e.seq;
      });
      if (!destroyed) live.push_back(std::move(e));
    }
    return live;
  }

 private:
  std::map<uint64_t, trace::Event> live_;  // alloc id -> its Alloc event
  std::unordered_set<uint64_t> freed_early_;
  std::vector<std::pair<uint64_t, uint64_t>> destroyed_;  // context, seq
};

}  // namespace

TraceWindow read_window(const std::filesystem::path& path, uint64_t after_seq) {
  if (after_seq == 0) return {trace::read_trace(path), 0};
  LiveAtCut before;
  trace::Trace after = trace::read_trace(path, [&](trace::Event& e) {
    if (e.seq > after_seq) return true;
    before.see(std::move(e));
    return false;
  });
  TraceWindow window;
  std::vector<trace::Event> events = std::move(before).take();
  window.carried_allocations = events.size();
  events.insert(events.end(), std::make_move_iterator(after.events.begin()),
                std::make_move_iterator(after.events.end()));
  after.events = std::move(events);
  window.trace = std::move(after);
  return window;
}

}  // namespace tidepool::runtime::optimize
