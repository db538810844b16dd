// Hooks of stream capture: its beginning (into a new graph or an existing one) and end, the
// program's questions about it (whose answers keep the capture state exact) and the exchange of a
// thread's capture interaction mode, which is recorded.
#include "intercept/capture_state.h"
#include "intercept/hook_abi.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

// Marks `stream` capturing around the real call that begins a capture on it.
template <class Call>
CUresult begin_capture(uint64_t stream, CUstreamCaptureMode mode, Call&& call) {
  // A stream that already captures cannot begin another capture: the driver refuses, and the
  // capture under way must stay marked.
  if (capture_state().capturing(stream)) return call();
  capture_state().begin(stream);
  const CUresult r = call();
  if (r != CUDA_SUCCESS) {
    capture_state().end(stream);
    return r;
  }
  learn_capture_of(stream);  // its capture id: streams that join the capture leave with it
  if (auto* rec = recorder()) rec->record(trace::CaptureBegin{stream, static_cast<uint32_t>(mode)});
  return r;
}

// Brings the state in line with what the driver answered about `stream`.
CUresult note_answer(CUresult r, uint64_t stream, const CUstreamCaptureStatus* status, const cuuint64_t* id) {
  if (r != CUDA_SUCCESS || status == nullptr) return r;
  if (*status == CU_STREAM_CAPTURE_STATUS_NONE) {
    if (capture_state().capturing(stream)) capture_state().end(stream);
  } else if (id != nullptr) {
    capture_state().join(stream, *id);
  } else {
    learn_capture_of(stream);
  }
  return r;
}

}  // namespace

CUresult on_cuStreamBeginCapture(const Real<PFN_cuStreamBeginCapture_v10010>& real, CUstream stream,
                                 CUstreamCaptureMode mode) {
  return begin_capture(handle_u64(real.effective_stream(stream)), mode, [&] { return real(stream, mode); });
}

CUresult on_cuStreamBeginCaptureToGraph(const Real<PFN_cuStreamBeginCaptureToGraph_v12030>& real, CUstream stream,
                                        CUgraph graph, const CUgraphNode* deps, const CUgraphEdgeData* edges,
                                        size_t dep_count, CUstreamCaptureMode mode) {
  return begin_capture(handle_u64(real.effective_stream(stream)), mode,
                       [&] { return real(stream, graph, deps, edges, dep_count, mode); });
}

CUresult on_cuStreamEndCapture(const Real<PFN_cuStreamEndCapture_v10000>& real, CUstream stream, CUgraph* graph) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  const CUresult r = real(stream, graph);
  if (r == CUDA_SUCCESS) {
    capture_state().end(s);
  } else {
    learn_capture_of(s);  // an invalidated capture is over; a joined stream that cannot end it is not
  }
  if (auto* rec = recorder()) {
    rec->record(trace::CaptureEnd{s, r == CUDA_SUCCESS && graph != nullptr ? handle_u64(*graph) : 0});
  }
  return r;
}

CUresult on_cuStreamIsCapturing(const Real<PFN_cuStreamIsCapturing_v10000>& real, CUstream stream,
                                CUstreamCaptureStatus* status) {
  return note_answer(real(stream, status), handle_u64(real.effective_stream(stream)), status, nullptr);
}

CUresult on_cuStreamGetCaptureInfo(const Real<PFN_cuStreamGetCaptureInfo_v10010>& real, CUstream stream,
                                   CUstreamCaptureStatus* status, cuuint64_t* id) {
  return note_answer(real(stream, status, id), handle_u64(real.effective_stream(stream)), status, id);
}

CUresult on_cuStreamGetCaptureInfo(const Real<PFN_cuStreamGetCaptureInfo_v11030>& real, CUstream stream,
                                   CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                   const CUgraphNode** deps, size_t* dep_count) {
  return note_answer(real(stream, status, id, graph, deps, dep_count), handle_u64(real.effective_stream(stream)),
                     status, id);
}

CUresult on_cuStreamGetCaptureInfo(const Real<PFN_cuStreamGetCaptureInfo_v12030>& real, CUstream stream,
                                   CUstreamCaptureStatus* status, cuuint64_t* id, CUgraph* graph,
                                   const CUgraphNode** deps, const CUgraphEdgeData** edges, size_t* dep_count) {
  return note_answer(real(stream, status, id, graph, deps, edges, dep_count),
                     handle_u64(real.effective_stream(stream)), status, id);
}

CUresult on_cuThreadExchangeStreamCaptureMode(const Real<PFN_cuThreadExchangeStreamCaptureMode_v10010>& real,
                                              CUstreamCaptureMode* mode) {
  if (mode == nullptr) return real(mode);
  const CUstreamCaptureMode wanted = *mode;
  const CUresult r = real(mode);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) {
      rec->record(trace::CaptureMode{static_cast<uint32_t>(wanted), static_cast<uint32_t>(*mode)});
    }
  }
  return r;
}

}  // namespace tidepool::intercept
