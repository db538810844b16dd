// Trace -> swap model (see from_trace.h).
#include "analyzer/swap/from_trace.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

namespace tidepool::swap {
namespace {

struct AllocationInfo {
  Bytes size = 0;
  std::size_t alloc_event = 0;
  std::optional<std::size_t> free_event;
  bool never_swapped = false;
};

// What the whole trace says, whichever iteration is modelled: the device allocations (and which
// of them the runtime could never move) and the ops' device timings.
struct TraceFacts {
  std::unordered_map<std::uint64_t, AllocationInfo> allocations;
  std::unordered_map<std::uint64_t, double> seconds;  // by op id, where timed
  // The mean timed duration of each kind of operation (op_kind()): the recorder samples device
  // timing, and an untimed op takes the time of its kind.
  std::unordered_map<std::uint64_t, double> kind_seconds;
};

std::uint64_t mix(std::uint64_t h, std::uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

// Operations expected to take the same time: a kernel with its grid, block and shared memory, a
// copy of one kind and size, a set of one size (the recorder samples by the same kinds).
std::uint64_t op_kind(const trace::Record& record) {
  if (const auto* l = std::get_if<trace::Launch>(&record)) {
    std::uint64_t h = mix(1, l->function);
    for (std::uint32_t v : l->grid) h = mix(h, v);
    for (std::uint32_t v : l->block) h = mix(h, v);
    return mix(h, l->shared_bytes);
  }
  if (const auto* c = std::get_if<trace::Copy>(&record)) return mix(mix(2, static_cast<std::uint64_t>(c->kind)), c->bytes);
  if (const auto* x = std::get_if<trace::Set>(&record)) return mix(mix(3, x->element_bytes), x->bytes);
  return 0;
}

std::uint64_t op_id_of(const trace::Record& record) {
  if (const auto* l = std::get_if<trace::Launch>(&record)) return l->op_id;
  if (const auto* c = std::get_if<trace::Copy>(&record)) return c->op_id;
  if (const auto* x = std::get_if<trace::Set>(&record)) return x->op_id;
  return 0;
}

TraceFacts scan(const trace::Trace& trace) {
  TraceFacts facts;
  std::vector<std::size_t> undecoded;  // launches whose accesses we cannot see, ascending
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    std::visit([&](const auto& r) {
      using T = std::decay_t<decltype(r)>;
      auto pin = [&](std::uint64_t id) {
        if (auto it = facts.allocations.find(id); it != facts.allocations.end()) it->second.never_swapped = true;
      };
      if constexpr (std::is_same_v<T, trace::Alloc>) {
        // A captured allocation or free is a node of a graph, not memory obtained or released now.
        if (trace::is_device_memory(r.kind) && !r.captured) facts.allocations[r.alloc_id] = {r.size, i, std::nullopt, false};
      } else if constexpr (std::is_same_v<T, trace::Free>) {
        if (r.captured) return;
        if (auto it = facts.allocations.find(r.alloc_id); it != facts.allocations.end()) it->second.free_event = i;
      } else if constexpr (std::is_same_v<T, trace::IndirectRef> || std::is_same_v<T, trace::AddressQuery>) {
        pin(r.alloc_id);
      } else if constexpr (std::is_same_v<T, trace::Launch>) {
        if (!r.params_decoded) undecoded.push_back(i);
      } else if constexpr (std::is_same_v<T, trace::GraphLaunch>) {
        undecoded.push_back(i);
      } else if constexpr (std::is_same_v<T, trace::DeviceTiming>) {
        facts.seconds[r.op_id] = static_cast<double>(r.end_ns - r.start_ns) * 1e-9;
      }
    }, trace.events[i].record);
  }
  std::unordered_map<std::uint64_t, std::pair<double, std::uint64_t>> sum;  // kind -> (seconds, count)
  for (const trace::Event& e : trace.events)
    if (const std::uint64_t kind = op_kind(e.record); kind != 0)
      if (auto t = facts.seconds.find(op_id_of(e.record)); t != facts.seconds.end()) {
        auto& [seconds, count] = sum[kind];
        seconds += t->second, ++count;
      }
  for (const auto& [kind, total] : sum) facts.kind_seconds[kind] = total.first / static_cast<double>(total.second);
  for (auto& [id, info] : facts.allocations) {
    const auto next = std::upper_bound(undecoded.begin(), undecoded.end(), info.alloc_event);
    if (next != undecoded.end() && (!info.free_event || *next < *info.free_event)) info.never_swapped = true;
  }
  return facts;
}

// Durations when the trace has no device timing: a fixed launch cost, copies over PCIe.
double estimated_seconds(const trace::Record& record) {
  if (const auto* c = std::get_if<trace::Copy>(&record)) return 5e-6 + static_cast<double>(c->bytes) / 25e9;
  if (const auto* s = std::get_if<trace::Set>(&record)) return 2e-6 + static_cast<double>(s->bytes) / 1e12;
  return 10e-6;
}

// How a buffer is known from one iteration to the next: a persistent one by its allocation, one
// allocated in the iteration by its ordinal among the iteration's device allocations.
struct BufferKey {
  bool persistent = false;
  std::uint64_t id = 0;
  auto operator<=>(const BufferKey&) const = default;
};

struct BuiltModel {
  Model model;
  std::vector<BufferKey> keys;  // per buffer
};

class Builder {
 public:
  Builder(const trace::Trace& trace, const TraceFacts& facts, TraceWindow window)
      : trace_(trace), facts_(facts), window_(window) {}

  BuiltModel build() {
    for (std::size_t i = window_.begin; i < window_.end; ++i) visit(i, trace_.events[i]);
    if (model_.ops.empty()) throw std::invalid_argument("the iteration holds no launch, copy or set");
    finish_buffers();
    return {std::move(model_), std::move(keys_)};
  }

 private:
  std::uint32_t stream_index(std::uint64_t stream) {
    return streams_.try_emplace(stream, static_cast<std::uint32_t>(streams_.size())).first->second;
  }

  bool is_device(std::uint64_t alloc_id) const { return facts_.allocations.contains(alloc_id); }

  Engine copy_engine(const trace::Copy& c) const {
    switch (c.kind) {
      case trace::CopyKind::host_to_device: return Engine::host_to_device;
      case trace::CopyKind::device_to_host: return Engine::device_to_host;
      case trace::CopyKind::unified:
        if (is_device(c.src.alloc_id) && !is_device(c.dst.alloc_id)) return Engine::device_to_host;
        if (!is_device(c.src.alloc_id) && is_device(c.dst.alloc_id)) return Engine::host_to_device;
        return Engine::compute;
      default: return Engine::compute;
    }
  }

  void add_op(OpKind kind, Engine engine, std::uint64_t op_id, std::uint64_t stream, std::string name,
              const trace::Record& record) {
    Op op{kind, stream_index(stream), 0, {}, std::move(name), engine, std::move(host_waits_), op_id};
    host_waits_.clear();
    if (auto t = facts_.seconds.find(op_id); t != facts_.seconds.end())
      op.seconds = t->second;
    else if (auto k = facts_.kind_seconds.find(op_kind(record)); k != facts_.kind_seconds.end())
      op.seconds = k->second;
    else
      op.seconds = estimated_seconds(record), model_.durations_estimated = true;
    if (auto w = waits_.find(stream); w != waits_.end()) {
      op.after = std::move(w->second);
      waits_.erase(w);
    }
    last_op_on_[stream] = static_cast<std::uint32_t>(model_.ops.size());
    model_.ops.push_back(std::move(op));
  }

  // The host waits for the last op of `stream`, or of every stream.
  void host_waits_for_stream(std::uint64_t stream) {
    if (auto it = last_op_on_.find(stream); it != last_op_on_.end()) host_waits_.push_back(it->second);
  }
  void host_waits_for_all() {
    for (const auto& [stream, op] : last_op_on_) host_waits_.push_back(op);
  }

  void access(std::uint64_t alloc_id, bool write, bool by_kernel) {
    if (!is_device(alloc_id)) return;
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
        add_op(OpKind::kernel, Engine::compute, r.op_id, r.stream, std::string(trace_.string(r.kernel_name_id)), e.record);
        for (const trace::Access& a : r.accesses) access(a.alloc_id, true, true);
      } else if constexpr (std::is_same_v<T, trace::GraphLaunch>) {
        add_op(OpKind::kernel, Engine::compute, r.op_id, r.stream, "<graph>", e.record);
      } else if constexpr (std::is_same_v<T, trace::Copy>) {
        if (r.captured) return;
        const Engine engine = copy_engine(r);
        add_op(OpKind::copy, engine, r.op_id, r.stream, std::string(trace::to_string(r.kind)), e.record);
        access(r.src.alloc_id, false, false);
        access(r.dst.alloc_id, true, false);
        // A synchronous copy to or from the host returns once it is done.
        if (!r.async && engine != Engine::compute) host_waits_.push_back(static_cast<std::uint32_t>(model_.ops.size() - 1));
      } else if constexpr (std::is_same_v<T, trace::Set>) {
        if (r.captured) return;
        add_op(OpKind::set, Engine::compute, r.op_id, r.stream, "memset", e.record);
        access(r.dst.alloc_id, true, false);
      } else if constexpr (std::is_same_v<T, trace::EventRecord>) {
        if (auto it = last_op_on_.find(r.stream); it != last_op_on_.end()) recorded_[r.event] = it->second;
      } else if constexpr (std::is_same_v<T, trace::StreamWaitEvent>) {
        if (auto it = recorded_.find(r.event); it != recorded_.end()) waits_[r.stream].push_back(it->second);
      } else if constexpr (std::is_same_v<T, trace::EventSynchronize>) {
        if (auto it = recorded_.find(r.event); it != recorded_.end()) host_waits_.push_back(it->second);
      } else if constexpr (std::is_same_v<T, trace::StreamSynchronize>) {
        if (r.stream == 0) host_waits_for_all();  // the legacy stream waits for every blocking stream
        else host_waits_for_stream(r.stream);
      } else if constexpr (std::is_same_v<T, trace::ContextSynchronize>) {
        host_waits_for_all();
      } else if constexpr (std::is_same_v<T, trace::Free>) {
        // cuMemFree waits for the device, as the real driver does (cuMemFreeAsync does not).
        const bool synchronous = r.kind == trace::AllocKind::device || r.kind == trace::AllocKind::device_pitched;
        if (synchronous && !r.captured) host_waits_for_all();
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
    std::vector<std::pair<std::uint64_t, Buffer>> made;  // by trace allocation id
    std::vector<std::pair<std::size_t, std::uint64_t>> allocated_inside;  // (event, alloc id)
    for (const auto& [id, info] : facts_.allocations) {
      if (info.alloc_event >= window_.end) continue;
      const bool before = info.alloc_event < window_.begin;
      if (!before) allocated_inside.push_back({info.alloc_event, id});
      const bool freed_inside = info.free_event && *info.free_event < window_.end;
      if (info.free_event && *info.free_event < window_.begin) continue;  // dead before
      Buffer b;
      b.size = info.size;
      b.trace_alloc_id = id;
      // Made in an earlier iteration and freed in this one: a different allocation each time.
      b.never_swapped = info.never_swapped || (before && freed_inside);
      b.persistent = before && !freed_inside;
      b.begin = before ? 0 : ops_before(info.alloc_event);
      b.end = freed_inside ? ops_before(*info.free_event) : n;
      if (auto it = accesses_.find(id); it != accesses_.end()) b.accesses = std::move(it->second);
      if (b.begin < b.end || b.persistent) made.emplace_back(id, std::move(b));
    }
    std::sort(allocated_inside.begin(), allocated_inside.end());
    std::unordered_map<std::uint64_t, std::uint64_t> ordinal;
    for (std::size_t k = 0; k < allocated_inside.size(); ++k) ordinal[allocated_inside[k].second] = k;
    std::sort(made.begin(), made.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [id, b] : made) {
      const auto it = ordinal.find(id);
      keys_.push_back(it != ordinal.end() ? BufferKey{false, it->second} : BufferKey{true, id});
      model_.buffers.push_back(std::move(b));
    }
  }

  const trace::Trace& trace_;
  const TraceFacts& facts_;
  TraceWindow window_;
  Model model_;
  std::vector<BufferKey> keys_;
  std::unordered_map<std::uint64_t, std::vector<Access>> accesses_;
  std::unordered_map<std::uint64_t, std::uint32_t> streams_, recorded_;
  std::map<std::uint64_t, std::uint32_t> last_op_on_;  // ordered: host waits in a fixed order
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> waits_;
  std::vector<std::uint32_t> host_waits_;  // for the next op
  std::vector<std::pair<std::size_t, std::uint32_t>> op_count_at_;
};

bool same_accesses(const Buffer& a, const Buffer& b) {
  if (a.size != b.size || a.persistent != b.persistent || a.begin != b.begin || a.end != b.end ||
      a.accesses.size() != b.accesses.size())
    return false;
  for (std::size_t i = 0; i < a.accesses.size(); ++i) {
    const Access &x = a.accesses[i], &y = b.accesses[i];
    if (x.op != y.op || x.write != y.write || x.by_kernel != y.by_kernel) return false;
  }
  return true;
}

// Pins every buffer of `built` whose counterpart in `other` is missing or accessed differently.
void pin_unstable(BuiltModel& built, const BuiltModel& other) {
  std::map<BufferKey, std::size_t> index;
  for (std::size_t i = 0; i < other.keys.size(); ++i) index.emplace(other.keys[i], i);
  for (std::size_t i = 0; i < built.keys.size(); ++i) {
    Buffer& b = built.model.buffers[i];
    if (b.never_swapped) continue;
    const auto it = index.find(built.keys[i]);
    if (it == index.end() || !same_accesses(b, other.model.buffers[it->second])) b.never_swapped = true;
  }
}

void check_window(const trace::Trace& trace, TraceWindow window) {
  if (window.begin >= window.end || window.end > trace.events.size())
    throw std::invalid_argument("the iteration window is empty or outside the trace");
}

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

Model model_from_trace(const trace::Trace& trace, TraceWindow window, std::span<const TraceWindow> others) {
  check_window(trace, window);
  for (const TraceWindow& other : others) check_window(trace, other);
  const TraceFacts facts = scan(trace);
  BuiltModel built = Builder(trace, facts, window).build();
  for (const TraceWindow& other : others)
    if (other.begin != window.begin || other.end != window.end)
      pin_unstable(built, Builder(trace, facts, other).build());
  validate(built.model);
  return std::move(built.model);
}

}  // namespace tidepool::swap
