// Stream capture: while a stream captures, work issued to it is recorded into a graph instead of
// run. Event records and waits carry a capture across streams (a stream that waits for an event
// recorded in a capture joins it). Operations that cannot be captured invalidate the capture.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "tools/simcuda/src/graph.h"
#include "tools/simcuda/src/stream.h"

namespace simcuda {

struct Capture {
  std::unique_ptr<Graph> graph = std::make_unique<Graph>();
  Stream* origin = nullptr;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::thread::id thread;
  unsigned long long id = 0;
  bool invalidated = false;
  std::vector<Stream*> streams;  // every stream in the capture, the origin first
};

// Where an event record (or any operation) was captured: what a later wait depends on.
struct CaptureSpot {
  std::shared_ptr<Capture> capture;
  std::vector<const GraphNode*> deps;
};

// Whether an operation may be issued to `stream` now (nullptr: a call that names no stream).
// synchronous: the call makes the host wait, or is otherwise unsafe during capture. Errors:
// CUDA_ERROR_STREAM_CAPTURE_INVALIDATED on an invalidated capture; _UNSUPPORTED for a
// synchronous call on a capturing stream, or while a capture that the mode protects is active
// (which invalidates that capture); _IMPLICIT for the legacy stream while a blocking stream of
// its context captures (which invalidates that capture).
CUresult capture_gate(Stream* stream, bool synchronous);

// When `stream` captures, or joins a capture through a captured wait, records the operation into
// the graph, sets `placeholder` to a finished operation that carries its CaptureSpot, and
// returns true. Otherwise returns false and changes nothing.
bool capture_operation(Stream& stream, Engine engine, int64_t duration_ns, const std::function<void(Op&)>& work,
                       std::span<const OpPtr> waits, const std::function<void()>& account, OpPtr& placeholder);

CUresult begin_capture(Stream& stream, CUstreamCaptureMode mode);
CUresult end_capture(Stream& stream, CUgraph* graph);

struct CaptureInfo {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  unsigned long long id = 0;
  CUgraph graph = nullptr;
  const CUgraphNode* deps = nullptr;  // valid until the stream's next capture call
  size_t dep_count = 0;
};
CaptureInfo capture_info(Stream& stream);

// A stream being destroyed leaves its capture: the capture ends if it began there, else it is
// invalidated.
void forget_capturing_stream(Stream& stream);

// cuThreadExchangeStreamCaptureMode: the calling thread's mode.
CUstreamCaptureMode exchange_capture_mode(CUstreamCaptureMode mode);

}  // namespace simcuda
