// Stream capture state: which streams capture into which graph (see capture.h).
#include "tools/simcuda/src/capture.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

#include "tools/simcuda/src/context.h"

namespace simcuda {
namespace {

struct Captures {
  std::mutex mutex;
  std::vector<std::shared_ptr<Capture>> active;
  unsigned long long next_id = 1;
};

Captures& captures() {
  static Captures& instance = *new Captures;
  return instance;
}

thread_local CUstreamCaptureMode thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

// Whether an unsafe call from this thread is prohibited by capture c (the driver's mode rules).
bool prohibits(const Capture& c) {
  if (thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED) return false;
  if (c.thread == std::this_thread::get_id() && c.mode != CU_STREAM_CAPTURE_MODE_RELAXED) return true;
  return thread_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && c.mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
}

// Ends a capture: its streams stop capturing. Caller holds the mutex.
void end(const std::shared_ptr<Capture>& c) {
  for (Stream* s : c->streams) {
    s->capture = nullptr;
    s->capture_deps.clear();
    s->reported_deps.clear();
  }
  std::erase(captures().active, c);
}

// Every node that `from` depends on, directly or not, and `from` itself.
std::set<const GraphNode*> ancestors(std::span<const GraphNode* const> from) {
  std::set<const GraphNode*> seen;
  std::vector<const GraphNode*> todo(from.begin(), from.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
  return seen;
}

void merge(std::vector<const GraphNode*>& into, std::span<const GraphNode* const> more) {
  for (const GraphNode* n : more)
    if (std::find(into.begin(), into.end(), n) == into.end()) into.push_back(n);
}

}  // namespace

CUresult capture_gate(Stream* stream, bool synchronous) {
  const std::lock_guard lock(captures().mutex);
  if (stream != nullptr && stream->capture != nullptr) {
    if (stream->capture->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    if (!synchronous) return CUDA_SUCCESS;
    stream->capture->invalidated = true;
    return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  }
  if (stream != nullptr && stream->kind == StreamKind::legacy) {
    for (const auto& c : captures().active) {
      const bool implicit = std::any_of(c->streams.begin(), c->streams.end(), [&](Stream* s) {
        return &s->context == &stream->context && s->blocking();
      });
      if (implicit) {
        c->invalidated = true;
        return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
      }
    }
  }
  if (synchronous) {
    for (const auto& c : captures().active) {
      if (prohibits(*c)) {
        c->invalidated = true;
        return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
      }
    }
  }
  return CUDA_SUCCESS;
}

bool capture_operation(Stream& stream, Engine engine, int64_t duration_ns, const std::function<void(Op&)>& work,
                       std::span<const OpPtr> waits, const std::function<void()>& account, OpPtr& placeholder) {
  const std::lock_guard lock(captures().mutex);
  std::vector<const GraphNode*> deps = stream.capture_deps;
  for (const OpPtr& w : waits) {
    if (w == nullptr || w->captured == nullptr) continue;  // work outside the graph orders nothing in it
    const std::shared_ptr<Capture>& c = w->captured->capture;
    if (std::find(captures().active.begin(), captures().active.end(), c) == captures().active.end()) continue;
    if (stream.capture == nullptr) {  // the stream joins the capture
      stream.capture = c;
      c->streams.push_back(&stream);
    }
    if (stream.capture != c) {  // two captures cannot merge
      stream.capture->invalidated = c->invalidated = true;
      continue;
    }
    merge(deps, w->captured->deps);
  }
  if (stream.capture == nullptr) return false;
  const bool does_work = work != nullptr || engine != Engine::none || duration_ns != 0;
  if (does_work && !stream.capture->invalidated) {
    Graph& graph = *stream.capture->graph;
    graph.nodes.push_back(GraphNode{engine, duration_ns, work, account, deps});
    deps = {&graph.nodes.back()};
  }
  stream.capture_deps = deps;
  placeholder = std::make_shared<Op>(engine, 0, nullptr);
  placeholder->done = true;
  placeholder->captured = std::make_shared<const CaptureSpot>(CaptureSpot{stream.capture, std::move(deps)});
  return true;
}

CUresult begin_capture(Stream& stream, CUstreamCaptureMode mode) {
  if (stream.kind == StreamKind::legacy) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  const std::lock_guard lock(captures().mutex);
  if (stream.capture != nullptr) return CUDA_ERROR_ILLEGAL_STATE;
  auto c = std::make_shared<Capture>();
  c->origin = &stream;
  c->mode = mode;
  c->thread = std::this_thread::get_id();
  c->id = captures().next_id++;
  c->streams.push_back(&stream);
  stream.capture = c;
  stream.capture_deps.clear();
  captures().active.push_back(std::move(c));
  return CUDA_SUCCESS;
}

CUresult end_capture(Stream& stream, CUgraph* graph) {
  if (graph == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const std::lock_guard lock(captures().mutex);
  const std::shared_ptr<Capture> c = stream.capture;
  if (c == nullptr) return CUDA_ERROR_ILLEGAL_STATE;
  if (c->origin != &stream) return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && c->thread != std::this_thread::get_id())
    return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
  *graph = nullptr;
  const std::set<const GraphNode*> joined = ancestors(stream.capture_deps);
  const bool unjoined = std::any_of(c->streams.begin(), c->streams.end(), [&](Stream* s) {
    return std::any_of(s->capture_deps.begin(), s->capture_deps.end(),
                       [&](const GraphNode* n) { return !joined.contains(n); });
  });
  end(c);
  if (c->invalidated) return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  if (unjoined) return CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
  *graph = register_graph(std::move(c->graph));
  return CUDA_SUCCESS;
}

CaptureInfo capture_info(Stream& stream) {
  const std::lock_guard lock(captures().mutex);
  CaptureInfo info;
  const std::shared_ptr<Capture>& c = stream.capture;
  if (c == nullptr) return info;
  info.status = c->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  info.id = c->id;
  info.graph = reinterpret_cast<CUgraph>(c->graph.get());
  stream.reported_deps.clear();
  for (const GraphNode* n : stream.capture_deps)
    stream.reported_deps.push_back(reinterpret_cast<CUgraphNode>(const_cast<GraphNode*>(n)));
  info.deps = stream.reported_deps.data();
  info.dep_count = stream.reported_deps.size();
  return info;
}

void forget_capturing_stream(Stream& stream) {
  const std::lock_guard lock(captures().mutex);
  const std::shared_ptr<Capture> c = stream.capture;
  if (c == nullptr) return;
  if (c->origin == &stream) {
    end(c);
    return;
  }
  c->invalidated = true;
  std::erase(c->streams, &stream);
  stream.capture = nullptr;
  stream.capture_deps.clear();
}

CUstreamCaptureMode exchange_capture_mode(CUstreamCaptureMode mode) {
  const CUstreamCaptureMode old = thread_mode;
  thread_mode = mode;
  return old;
}

}  // namespace simcuda
