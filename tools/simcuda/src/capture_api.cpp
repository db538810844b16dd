// cuStreamBeginCapture, cuStreamEndCapture, cuStreamIsCapturing, cuStreamGetCaptureInfo (every
// ABI version, _ptsz forms) and cuThreadExchangeStreamCaptureMode.
#include <cstring>

#include "tools/simcuda/src/api.h"
#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/scheduler.h"

using namespace simcuda;

namespace {

// Reads the integer the caller passed: it may be no valid enumerator.
bool valid_mode(const CUstreamCaptureMode& mode_in) {
  int mode = 0;
  std::memcpy(&mode, &mode_in, sizeof mode);
  return mode == CU_STREAM_CAPTURE_MODE_GLOBAL || mode == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL ||
         mode == CU_STREAM_CAPTURE_MODE_RELAXED;
}

CUresult begin(CUstream handle, CUstreamCaptureMode mode, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (!valid_mode(mode)) return CUDA_ERROR_INVALID_VALUE;
  return begin_capture(*stream, mode);
}

CUresult end(CUstream handle, CUgraph* graph, bool per_thread) {
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  return end_capture(*stream, graph);
}

CUresult info(CUstream handle, bool per_thread, CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
              const CUgraphNode** deps, const CUgraphEdgeData** edges, size_t* dep_count) {
  if (status == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (stream->kind == StreamKind::legacy) {
    // Asking about the legacy stream while a blocking stream captures is itself an implicit sync.
    if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  }
  const CaptureInfo i = capture_info(*stream);
  *status = i.status;
  if (i.status == CU_STREAM_CAPTURE_STATUS_NONE) return CUDA_SUCCESS;
  if (id != nullptr) *id = i.id;
  if (graph != nullptr) *graph = i.graph;
  if (deps != nullptr) *deps = i.deps;
  if (edges != nullptr) *edges = nullptr;  // every edge is a plain full dependency
  if (dep_count != nullptr) *dep_count = i.dep_count;
  return CUDA_SUCCESS;
}

}  // namespace

SIMCUDA_API CUresult cuStreamBeginCapture(CUstream hStream) {
  return guard([&] { return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, false); });
}
SIMCUDA_API CUresult cuStreamBeginCapture_ptsz(CUstream hStream) {
  return guard([&] { return begin(hStream, CU_STREAM_CAPTURE_MODE_GLOBAL, true); });
}
SIMCUDA_API CUresult cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode) {
  return guard([&] { return begin(hStream, mode, false); });
}
SIMCUDA_API CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode) {
  return guard([&] { return begin(hStream, mode, true); });
}

SIMCUDA_API CUresult cuStreamEndCapture(CUstream hStream, CUgraph* phGraph) {
  return guard([&] { return end(hStream, phGraph, false); });
}
SIMCUDA_API CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph* phGraph) {
  return guard([&] { return end(hStream, phGraph, true); });
}

SIMCUDA_API CUresult cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return guard([&] { return info(hStream, false, captureStatus, nullptr, nullptr, nullptr, nullptr, nullptr); });
}
SIMCUDA_API CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus) {
  return guard([&] { return info(hStream, true, captureStatus, nullptr, nullptr, nullptr, nullptr, nullptr); });
}

SIMCUDA_API CUresult cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus* status, cuuint64_t* id) {
  return guard([&] { return info(hStream, false, status, id, nullptr, nullptr, nullptr, nullptr); });
}
SIMCUDA_API CUresult cuStreamGetCaptureInfo_ptsz(CUstream hStream, CUstreamCaptureStatus* status, cuuint64_t* id) {
  return guard([&] { return info(hStream, true, status, id, nullptr, nullptr, nullptr, nullptr); });
}
SIMCUDA_API CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                               CUgraph* graph, const CUgraphNode** deps, size_t* count) {
  return guard([&] { return info(hStream, false, status, id, graph, deps, nullptr, count); });
}
SIMCUDA_API CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hStream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                                    CUgraph* graph, const CUgraphNode** deps, size_t* count) {
  return guard([&] { return info(hStream, true, status, id, graph, deps, nullptr, count); });
}
SIMCUDA_API CUresult cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                               CUgraph* graph, const CUgraphNode** deps,
                                               const CUgraphEdgeData** edges, size_t* count) {
  return guard([&] { return info(hStream, false, status, id, graph, deps, edges, count); });
}
SIMCUDA_API CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus* status,
                                                    cuuint64_t* id, CUgraph* graph, const CUgraphNode** deps,
                                                    const CUgraphEdgeData** edges, size_t* count) {
  return guard([&] { return info(hStream, true, status, id, graph, deps, edges, count); });
}

SIMCUDA_API CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    if (mode == nullptr || !valid_mode(*mode)) return CUDA_ERROR_INVALID_VALUE;
    *mode = exchange_capture_mode(*mode);
    return CUDA_SUCCESS;
  });
}
