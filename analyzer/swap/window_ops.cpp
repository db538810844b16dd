// The ops of one iteration window (see window_ops.h).
#include "analyzer/swap/window_ops.h"

#include <map>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace tidepool::swap {
namespace {

class OpBuilder {
 public:
  OpBuilder(const trace::Trace& tables, const TraceFacts& facts, TraceWindow window, Model& model)
      : tables_(tables),
        facts_(facts),
        window_(window),
        first_op_(facts.ops_before(window.begin)),
        model_(model) {}

  void add_ops(std::span<const trace::Event> events) {
    model_.ops.reserve(facts_.ops_before(window_.end) - first_op_);
    for (const trace::Event& e : events) visit(e.record);
  }

 private:
  std::uint32_t stream_index(std::uint64_t stream) {
    return streams_.try_emplace(stream, static_cast<std::uint32_t>(streams_.size())).first->second;
  }

  bool is_device(std::uint64_t alloc_id) const { return facts_.allocation_index(alloc_id).has_value(); }

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

  void add_op(OpKind kind, Engine engine, std::uint64_t op_id, std::uint64_t stream, std::string name) {
    const auto number = first_op_ + static_cast<std::uint32_t>(model_.ops.size());
    Op op{kind, stream_index(stream), facts_.op_seconds(number), {}, std::move(name), engine, std::move(host_waits_), op_id};
    host_waits_.clear();
    model_.durations_estimated |= facts_.op_estimated(number);
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

  void visit(const trace::Record& record) {
    std::visit([&](const auto& r) {
      using T = std::decay_t<decltype(r)>;
      if constexpr (std::is_same_v<T, trace::Launch>) {
        if (r.captured) return;
        add_op(OpKind::kernel, Engine::compute, r.op_id, r.stream,
               std::string(tables_.string(r.kernel_name_id)));
      } else if constexpr (std::is_same_v<T, trace::GraphLaunch>) {
        add_op(OpKind::kernel, Engine::compute, r.op_id, r.stream, "<graph>");
      } else if constexpr (std::is_same_v<T, trace::Copy>) {
        if (r.captured) return;
        const Engine engine = copy_engine(r);
        add_op(OpKind::copy, engine, r.op_id, r.stream, std::string(trace::to_string(r.kind)));
        // A synchronous copy to or from the host returns once it is done.
        if (!r.async && engine != Engine::compute) host_waits_.push_back(static_cast<std::uint32_t>(model_.ops.size() - 1));
      } else if constexpr (std::is_same_v<T, trace::Set>) {
        if (r.captured) return;
        add_op(OpKind::set, Engine::compute, r.op_id, r.stream, "memset");
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
    }, record);
  }

  const trace::Trace& tables_;
  const TraceFacts& facts_;
  TraceWindow window_;
  std::uint32_t first_op_;
  Model& model_;
  std::unordered_map<std::uint64_t, std::uint32_t> streams_, recorded_;
  std::map<std::uint64_t, std::uint32_t> last_op_on_;  // ordered: host waits in a fixed order
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> waits_;
  std::vector<std::uint32_t> host_waits_;  // for the next op
};

}  // namespace

void add_window_ops(std::span<const trace::Event> events, const trace::Trace& tables,
                    const TraceFacts& facts, TraceWindow window, Model& model) {
  OpBuilder(tables, facts, window, model).add_ops(events);
}

bool window_ops_need(trace::RecordTag tag) {
  using T = trace::RecordTag;
  return tag == T::launch || tag == T::graph_launch || tag == T::copy || tag == T::set ||
         tag == T::event_record || tag == T::stream_wait_event || tag == T::event_synchronize ||
         tag == T::stream_synchronize || tag == T::context_synchronize || tag == T::free;
}

}  // namespace tidepool::swap
