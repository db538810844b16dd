// Trace -> swap model (see from_trace.h).
#include "analyzer/swap/from_trace.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <variant>

namespace tidepool::swap {
namespace {

struct AllocationInfo {
  Bytes size = 0;
  std::size_t alloc_event = 0;
  std::optional<std::size_t> free_event;
  bool indirect = false;
};

// Durations when the trace has no device timing: a fixed launch cost, copies over PCIe.
double estimated_seconds(const trace::Record& record) {
  if (const auto* c = std::get_if<trace::Copy>(&record)) return 5e-6 + static_cast<double>(c->bytes) / 25e9;
  if (const auto* s = std::get_if<trace::Set>(&record)) return 2e-6 + static_cast<double>(s->bytes) / 1e12;
  return 10e-6;
}

class Builder {
 public:
  Builder(const trace::Trace& trace, TraceWindow window) : trace_(trace), window_(window) {}

  Model build() {
    scan_allocations();
    for (const trace::Event& e : trace_.events)
      if (const auto* t = std::get_if<trace::DeviceTiming>(&e.record)) timing_[t->op_id] = *t;
    for (std::size_t i = window_.begin; i < window_.end; ++i) visit(i, trace_.events[i]);
    if (model_.ops.empty()) throw std::invalid_argument("the iteration holds no launch, copy or set");
    finish_buffers();
    return std::move(model_);
  }

 private:
  void scan_allocations() {
    for (std::size_t i = 0; i < window_.end; ++i) {
      const trace::Record& r = trace_.events[i].record;
      if (const auto* a = std::get_if<trace::Alloc>(&r); a && trace::is_device_memory(a->kind))
        allocations_[a->alloc_id] = {a->size, i, std::nullopt, false};
      else if (const auto* f = std::get_if<trace::Free>(&r)) {
        if (auto it = allocations_.find(f->alloc_id); it != allocations_.end()) it->second.free_event = i;
      } else if (const auto* x = std::get_if<trace::IndirectRef>(&r)) {
        if (auto it = allocations_.find(x->alloc_id); it != allocations_.end()) it->second.indirect = true;
      }
    }
  }

  std::uint32_t stream_index(std::uint64_t stream) {
    return streams_.try_emplace(stream, static_cast<std::uint32_t>(streams_.size())).first->second;
  }

  void add_op(OpKind kind, std::uint64_t op_id, std::uint64_t stream, std::string name,
              const trace::Record& record) {
    Op op{kind, stream_index(stream), 0, {}, std::move(name)};
    if (auto t = timing_.find(op_id); t != timing_.end())
      op.seconds = static_cast<double>(t->second.end_ns - t->second.start_ns) * 1e-9;
    else
      op.seconds = estimated_seconds(record), model_.durations_estimated = true;
    if (auto w = waits_.find(stream); w != waits_.end()) {
      op.after = std::move(w->second);
      waits_.erase(w);
    }
    last_op_on_[stream] = static_cast<std::uint32_t>(model_.ops.size());
    model_.ops.push_back(std::move(op));
  }

  void access(std::uint64_t alloc_id, bool write, bool by_kernel) {
    if (!allocations_.contains(alloc_id)) return;
    auto& list = accesses_[alloc_id];
    const auto op = static_cast<std::uint32_t>(model_.ops.size() - 1);
    if (!list.empty() && list.back().op == op) {
      list.back().write |= write;
      list.back().by_kernel |= by_kernel;
    } else {
      list.push_back({op, write, by_kernel});
    }
  }

  void visit(std::size_t index, const trace::Event& e) {
    std::visit([&](const auto& r) {
      using T = std::decay_t<decltype(r)>;
      if constexpr (std::is_same_v<T, trace::Launch>) {
        if (r.captured) return;
        add_op(OpKind::kernel, r.op_id, r.stream, std::string(trace_.string(r.kernel_name_id)), e.record);
        for (const trace::Access& a : r.accesses) access(a.alloc_id, true, true);
        if (!r.params_decoded) undecoded_at_.push_back(index);
      } else if constexpr (std::is_same_v<T, trace::GraphLaunch>) {
        add_op(OpKind::kernel, r.op_id, r.stream, "<graph>", e.record);
        undecoded_at_.push_back(index);
      } else if constexpr (std::is_same_v<T, trace::Copy>) {
        if (r.captured) return;
        add_op(OpKind::copy, r.op_id, r.stream, std::string(trace::to_string(r.kind)), e.record);
        access(r.src.alloc_id, false, false);
        access(r.dst.alloc_id, true, false);
      } else if constexpr (std::is_same_v<T, trace::Set>) {
        if (r.captured) return;
        add_op(OpKind::set, r.op_id, r.stream, "memset", e.record);
        access(r.dst.alloc_id, true, false);
      } else if constexpr (std::is_same_v<T, trace::EventRecord>) {
        if (auto it = last_op_on_.find(r.stream); it != last_op_on_.end()) recorded_[r.event] = it->second;
      } else if constexpr (std::is_same_v<T, trace::StreamWaitEvent>) {
        if (auto it = recorded_.find(r.event); it != recorded_.end()) waits_[r.stream].push_back(it->second);
      }
    }, e.record);
    op_count_at_.push_back({index, static_cast<std::uint32_t>(model_.ops.size())});
  }

  // Ops issued before trace event `index` (window-relative op position).
  std::uint32_t ops_before(std::size_t index) const {
    const auto it = std::lower_bound(op_count_at_.begin(), op_count_at_.end(), index,
                                     [](const auto& p, std::size_t i) { return p.first < i; });
    if (it == op_count_at_.begin()) return 0;
    return std::prev(it)->second;
  }

  void finish_buffers() {
    const auto n = static_cast<std::uint32_t>(model_.ops.size());
    for (auto& [id, info] : allocations_) {
      const bool before = info.alloc_event < window_.begin;
      const bool freed_inside = info.free_event && *info.free_event < window_.end;
      if (info.free_event && *info.free_event < window_.begin) continue;  // dead before
      Buffer b;
      b.size = info.size;
      b.trace_alloc_id = id;
      b.indirect = info.indirect;
      b.persistent = before && !freed_inside;
      b.begin = before ? 0 : ops_before(info.alloc_event);
      b.end = freed_inside ? ops_before(*info.free_event) : n;
      if (auto it = accesses_.find(id); it != accesses_.end()) b.accesses = std::move(it->second);
      for (std::size_t u : undecoded_at_)
        if (info.alloc_event < u && (!info.free_event || u < *info.free_event)) b.indirect = true;
      if (b.begin < b.end || b.persistent) model_.buffers.push_back(std::move(b));
    }
    std::sort(model_.buffers.begin(), model_.buffers.end(),
              [](const Buffer& a, const Buffer& b) { return a.trace_alloc_id < b.trace_alloc_id; });
  }

  const trace::Trace& trace_;
  TraceWindow window_;
  Model model_;
  std::unordered_map<std::uint64_t, AllocationInfo> allocations_;
  std::unordered_map<std::uint64_t, std::vector<Access>> accesses_;
  std::unordered_map<std::uint64_t, trace::DeviceTiming> timing_;
  std::unordered_map<std::uint64_t, std::uint32_t> streams_, last_op_on_, recorded_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> waits_;
  std::vector<std::size_t> undecoded_at_;
  std::vector<std::pair<std::size_t, std::uint32_t>> op_count_at_;
};

}  // namespace

std::vector<TraceWindow> nvtx_iterations(const trace::Trace& trace, std::string_view name) {
  std::vector<TraceWindow> windows;
  constexpr std::size_t kClosed = ~std::size_t{0};
  std::size_t open = kClosed;
  int depth = 0;  // NVTX nesting since the open push: the last iteration ends at its own pop
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const trace::Record& r = trace.events[i].record;
    if (const auto* push = std::get_if<trace::RangePush>(&r)) {
      if (trace.string(push->name_id) == name) {
        if (open != kClosed) windows.push_back({open, i});
        open = i, depth = 0;
      }
      ++depth;
    } else if (std::holds_alternative<trace::RangePop>(r) && open != kClosed && --depth == 0) {
      windows.push_back({open, i + 1});
      open = kClosed;
    }
  }
  return windows;
}

Model model_from_trace(const trace::Trace& trace, TraceWindow window) {
  if (window.begin >= window.end || window.end > trace.events.size())
    throw std::invalid_argument("the iteration window is empty or outside the trace");
  Model model = Builder(trace, window).build();
  validate(model);
  return model;
}

}  // namespace tidepool::swap
