// Stream handles, cross-stream ordering rules, and host synchronization (see scheduler.h).
#include "tools/simcuda/src/scheduler.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/mempool.h"
#include "tools/simcuda/src/timeline.h"

namespace simcuda {
namespace {

struct Streams {
  std::mutex mutex;
  std::map<Stream*, std::unique_ptr<Stream>> created;  // created and per-thread streams
};

Streams& streams() {
  static Streams& instance = *new Streams;
  return instance;
}

Stream& per_thread_stream(Context& ctx) {  // caller holds the mutex
  auto& slot = ctx.per_thread[std::this_thread::get_id()];
  if (slot == nullptr) {
    auto stream = std::make_unique<Stream>(ctx, StreamKind::per_thread, 0, 0);
    slot = stream.get();
    ctx.streams.push_back(slot);
    streams().created.emplace(slot, std::move(stream));
  }
  return *slot;
}

// The last operation of the legacy stream and of every other stream (`blocking_only`: of the
// streams that synchronize with the legacy one).
std::vector<OpPtr> last_ops(Context& ctx, bool blocking_only = false) {
  const std::lock_guard lock(streams().mutex);
  std::vector<OpPtr> ops;
  if (ctx.legacy->last) ops.push_back(ctx.legacy->last);
  for (Stream* s : ctx.streams)
    if (s->last && (!blocking_only || s->blocking())) ops.push_back(s->last);
  return ops;
}

// What a new operation on `stream` must follow besides the stream's own last operation: waits
// (stand-ins for captured operations excluded) and the legacy-stream rules. Caller holds the mutex.
std::vector<OpPtr> ordered_before(Stream& stream, std::span<const OpPtr> waits) {
  std::vector<OpPtr> order;
  for (const OpPtr& w : waits)
    if (w != nullptr && w->captured == nullptr) order.push_back(w);
  Context& ctx = stream.context;
  if (stream.kind == StreamKind::legacy) {
    for (Stream* other : ctx.streams)
      if (other->blocking() && other->last) order.push_back(other->last);
  } else if (stream.blocking() && ctx.legacy->last) {
    order.push_back(ctx.legacy->last);
  }
  return order;
}

}  // namespace

CUresult resolve_stream(CUstream handle, bool per_thread_default, Stream*& out) {
  if (handle == nullptr) handle = per_thread_default ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
  if (handle == CU_STREAM_LEGACY || handle == CU_STREAM_PER_THREAD) {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    if (handle == CU_STREAM_LEGACY) {
      out = ctx->legacy.get();
    } else {
      const std::lock_guard lock(streams().mutex);
      out = &per_thread_stream(*ctx);
    }
    return CUDA_SUCCESS;
  }
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  const std::lock_guard lock(streams().mutex);
  const auto it = streams().created.find(reinterpret_cast<Stream*>(handle));
  if (it == streams().created.end() || it->first->kind != StreamKind::created) return CUDA_ERROR_INVALID_HANDLE;
  out = it->first;
  return CUDA_SUCCESS;
}

OpPtr enqueue(Stream& stream, Engine engine, int64_t duration_ns, std::function<void(Op&)> work,
              std::span<const OpPtr> waits, const std::function<void()>& account) {
  if (OpPtr captured; capture_operation(stream, engine, duration_ns, work, waits, account, captured)) return captured;
  if (account) account();
  auto op = std::make_shared<Op>(engine, duration_ns, std::move(work));
  const std::lock_guard lock(streams().mutex);
  std::vector<OpPtr> order = ordered_before(stream, waits);
  for (const OpPtr& o : order)
    if (!o->done.load(std::memory_order_acquire)) op->wall_waits.push_back(o);
  order.push_back(stream.last);
  stream.last = op;
  stream.push(op);
  timeline().add(op, order);
  return op;
}

void enqueue_graph(Stream& stream, const Graph& graph) {
  const std::lock_guard lock(streams().mutex);
  std::vector<OpPtr> head = ordered_before(stream, {});
  std::vector<OpPtr> wall_waits;
  for (const OpPtr& o : head)
    if (!o->done.load(std::memory_order_acquire)) wall_waits.push_back(o);
  head.push_back(stream.last);
  std::unordered_map<const GraphNode*, OpPtr> ops;
  std::vector<OpPtr> all;
  for (const GraphNode& node : graph.nodes) {
    if (node.account) node.account();
    auto op = std::make_shared<Op>(node.engine, node.duration_ns, node.work);
    std::vector<OpPtr> preds;
    for (const GraphNode* dep : node.deps) preds.push_back(ops.at(dep));
    if (preds.empty()) {
      preds = head;
      op->wall_waits = wall_waits;
    }
    stream.push(op);  // recording order is a topological order: the worker runs it in that order
    timeline().add(op, preds);
    ops.emplace(&node, op);
    all.push_back(std::move(op));
  }
  auto join = std::make_shared<Op>(Engine::none, 0, nullptr);
  if (all.empty()) {
    all = head;
    join->wall_waits = wall_waits;
  }
  stream.last = join;
  stream.push(join);
  timeline().add(join, all);
}

void host_wait(const OpPtr& op) {
  if (op == nullptr || op->captured != nullptr) return;
  wait_done(*op);
  timeline().host_waited(op);
}

OpPtr last_op(Stream& stream) {
  const std::lock_guard lock(streams().mutex);
  return stream.last;
}

void synchronize_stream(Stream& stream) {
  if (stream.kind == StreamKind::legacy) {
    // The legacy stream waits for every blocking stream: wait for what it would wait for (never
    // for a non-blocking stream's work).
    for (const OpPtr& op : last_ops(stream.context, true)) host_wait(op);
    pools_synchronized(nullptr);
    return;
  }
  host_wait(last_op(stream));
  pools_synchronized(&stream);
}

void synchronize_context(Context& context) {
  for (const OpPtr& op : last_ops(context)) host_wait(op);
  pools_synchronized(nullptr);
}

void synchronize_device() {
  for (Context* ctx : all_contexts()) synchronize_context(*ctx);
}

void wall_synchronize_device() {
  for (Context* ctx : all_contexts())
    for (const OpPtr& op : last_ops(*ctx)) wait_done(*op);
}

Stream& create_stream(Context& context, unsigned flags, int priority) {
  auto stream = std::make_unique<Stream>(context, StreamKind::created, flags, priority);
  Stream* raw = stream.get();
  const std::lock_guard lock(streams().mutex);
  context.streams.push_back(raw);
  streams().created.emplace(raw, std::move(stream));
  return *raw;
}

CUresult destroy_stream(CUstream handle) {
  const std::lock_guard lock(streams().mutex);
  const auto it = streams().created.find(reinterpret_cast<Stream*>(handle));
  if (it == streams().created.end() || it->first->kind != StreamKind::created) return CUDA_ERROR_INVALID_HANDLE;
  Stream* stream = it->first;
  forget_capturing_stream(*stream);
  std::erase(stream->context.streams, stream);
  stream->close();
  streams().created.erase(it);
  return CUDA_SUCCESS;
}

void release_context_streams(Context& context) {
  const std::lock_guard lock(streams().mutex);
  for (Stream* s : context.streams) {
    forget_capturing_stream(*s);
    s->close();
    streams().created.erase(s);
  }
  context.streams.clear();
  context.per_thread.clear();
  context.legacy->close();
}

}  // namespace simcuda

