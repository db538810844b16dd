// Cutting a trace at a sequence number while it is read.
#include "runtime/optimize/trace_window.h"

#include <algorithm>
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
  // Whether see() looks at records with this tag.
  static bool looks_at(trace::RecordTag tag) {
    using T = trace::RecordTag;
    return tag == T::alloc || tag == T::free || tag == T::context_destroy;
  }

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
  std::vector<trace::Event> live() const {
    std::vector<trace::Event> live;
    for (const auto& [id, e] : live_) {
      const auto& a = std::get<trace::Alloc>(e.record);
      const bool destroyed = std::any_of(destroyed_.begin(), destroyed_.end(), [&](const auto& d) {
        return d.first == a.context && d.second > e.seq;
      });
      if (!destroyed) live.push_back(e);
    }
    return live;
  }

 private:
  std::map<uint64_t, trace::Event> live_;  // alloc id -> its Alloc event
  std::unordered_set<uint64_t> freed_early_;
  std::vector<std::pair<uint64_t, uint64_t>> destroyed_;  // context, seq
};

}  // namespace

struct WindowReader::State {
  State(const std::filesystem::path& path, uint64_t after_seq)
      : path(path), after_seq(after_seq), follower(path, [this](trace::Event& e) {
          if (this->after_seq == 0 || e.seq > this->after_seq) {
            after.push_back(std::move(e));
          } else {
            before.see(std::move(e));
          }
          return false;
        }, [after_seq](trace::RecordTag tag, uint64_t seq) {
          // Events up to the cut that LiveAtCut does not look at are not decoded.
          return after_seq != 0 && seq <= after_seq && !LiveAtCut::looks_at(tag);
        }) {}
  std::filesystem::path path;
  uint64_t after_seq;
  LiveAtCut before;
  std::vector<trace::Event> after;  // the events after the cut read so far
  trace::TraceFollower follower;   // keeps no events: the filter takes them
};

WindowReader::WindowReader(const std::filesystem::path& path, uint64_t after_seq)
    : state_(std::make_unique<State>(path, after_seq)) {}

WindowReader::~WindowReader() = default;

bool WindowReader::reads(const std::filesystem::path& path, uint64_t after_seq) const {
  return state_->path == path && state_->after_seq == after_seq;
}

TraceWindow WindowReader::read() {
  std::vector<trace::Event>& after = state_->after;
  const auto sorted = static_cast<std::ptrdiff_t>(after.size());
  state_->follower.read_more();
  // What came since is sorted, then merged with what was (mostly in order already).
  std::ranges::stable_sort(after.begin() + sorted, after.end(), {}, &trace::Event::seq);
  std::ranges::inplace_merge(after, after.begin() + sorted, {}, &trace::Event::seq);
  TraceWindow window{state_->follower.trace(), 0};
  window.trace.events = state_->before.live();
  window.carried_allocations = window.trace.events.size();
  window.trace.events.insert(window.trace.events.end(), after.begin(), after.end());
  return window;
}

TraceWindow read_window(const std::filesystem::path& path, uint64_t after_seq) {
  return WindowReader(path, after_seq).read();
}

}  // namespace tidepool::runtime::optimize
