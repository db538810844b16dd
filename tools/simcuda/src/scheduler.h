// Putting work on streams: stream handles, the ordering rules between streams (the legacy
// default stream, per-thread default streams, event waits), and the host waiting for work.
#pragma once

#include <functional>
#include <span>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/context.h"
#include "tools/simcuda/src/graph.h"
#include "tools/simcuda/src/op.h"
#include "tools/simcuda/src/stream.h"

namespace simcuda {

// The stream a handle names: 0 is the legacy default stream, or the calling thread's per-thread
// default stream in _ptsz/_ptds calls (per_thread_default); CU_STREAM_LEGACY and
// CU_STREAM_PER_THREAD name those explicitly. Needs a current context for the default streams.
CUresult resolve_stream(CUstream handle, bool per_thread_default, Stream*& out);

// Queues work on a stream after everything the ordering rules put before it and after waits.
// duration_ns < 0: unknown until the work has run (kernels set op.duration_ns). account (the
// operation's statistics) runs now, or, when the stream captures (capture.h), at every launch of
// the graph; then the result is a finished stand-in for the captured operation.
OpPtr enqueue(Stream& stream, Engine engine, int64_t duration_ns, std::function<void(Op&)> work,
              std::span<const OpPtr> waits = {}, const std::function<void()>& account = nullptr);

// cuGraphLaunch: queues a graph's operations on a stream. Nodes without dependencies follow the
// stream's earlier work (and the legacy-stream rules), the others follow their dependencies; the
// stream's later work follows all of them.
void enqueue_graph(Stream& stream, const Graph& graph);

// The host waits for op, really and on the simulated clock.
void host_wait(const OpPtr& op);
void synchronize_stream(Stream& stream);
void synchronize_context(Context& context);
// Every context: the device is idle afterwards.
void synchronize_device();
// The same on the wall clock only (the host's simulated clock does not move).
void wall_synchronize_device();

Stream& create_stream(Context& context, unsigned flags, int priority);
// Closes a created stream (its queued work still runs); CUDA_ERROR_INVALID_HANDLE when unknown.
CUresult destroy_stream(CUstream handle);
// Closes every stream of a context being destroyed.
void release_context_streams(Context& context);

// The latest operation of a stream (nullptr when none), for stream queries.
OpPtr last_op(Stream& stream);

}  // namespace simcuda
