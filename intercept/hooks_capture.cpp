// Hooks of stream capture: which streams capture, so that work issued on them is recorded as
// captured and tidepool adds nothing of its own to them.
#include "intercept/capture_state.h"
#include "intercept/hook_abi.h"
#include "intercept/recording.h"

namespace tidepool::intercept {

CaptureState& capture_state() {
  static auto* const state = new CaptureState;  // never destroyed: hooks may run during exit
  return *state;
}

CUresult on_cuStreamBeginCapture(const Real<PFN_cuStreamBeginCapture_v10010>& real, CUstream stream,
                                 CUstreamCaptureMode mode) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  // Marked before the call: from here on nothing of ours may go to that stream.
  capture_state().begin(s);
  const CUresult r = real.fn(stream, mode);
  if (r != CUDA_SUCCESS) {
    capture_state().end(s);
  } else if (auto* rec = recorder()) {
    rec->record(trace::CaptureBegin{s, static_cast<uint32_t>(mode)});
  }
  return r;
}

CUresult on_cuStreamEndCapture(const Real<PFN_cuStreamEndCapture_v10000>& real, CUstream stream, CUgraph* graph) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  const CUresult r = real.fn(stream, graph);
  capture_state().end(s);  // the capture is over whether it succeeded or was invalidated
  if (auto* rec = recorder()) {
    rec->record(trace::CaptureEnd{s, r == CUDA_SUCCESS && graph != nullptr ? handle_u64(*graph) : 0});
  }
  return r;
}

}  // namespace tidepool::intercept
