// Hooks of the operations that order work: streams, events, synchronizations and stream memory
// operations.
#include "intercept/capture_state.h"
#include "intercept/device_timing.h"
#include "intercept/hook_abi.h"
#include "intercept/optimize_hooks.h"
#include "intercept/recording.h"

namespace tidepool::intercept {
namespace {

// Records `record` after the real call succeeds.
template <class Record, class Call>
CUresult after_success(Call&& call, Record record) {
  const CUresult r = call();
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) rec->record(record);
  }
  return r;
}

trace::StreamMemOp mem_op(CUstream stream, trace::StreamMemOpKind kind, CUdeviceptr address, uint64_t bytes) {
  const uint64_t s = handle_u64(stream);
  return {s, kind, range_of(address, bytes), capture_state().capturing(s)};
}

}  // namespace

CUresult on_cuStreamCreate(const Real<PFN_cuStreamCreate_v2000>& real, CUstream* stream, unsigned int flags) {
  const CUresult r = real(stream, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) rec->record(trace::StreamCreate{handle_u64(*stream), flags, 0});
  }
  return r;
}

CUresult on_cuStreamCreateWithPriority(const Real<PFN_cuStreamCreateWithPriority_v5050>& real, CUstream* stream,
                                       unsigned int flags, int priority) {
  const CUresult r = real(stream, flags, priority);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) rec->record(trace::StreamCreate{handle_u64(*stream), flags, priority});
  }
  return r;
}

CUresult on_cuStreamDestroy(const Real<PFN_cuStreamDestroy_v4000>& real, CUstream stream) {
  optimize_stream_destroyed(stream);
  const CUresult r = after_success([&] { return real(stream); }, trace::StreamDestroy{handle_u64(stream)});
  // A destroyed stream leaves its capture (and a capture begun on it is over).
  if (r == CUDA_SUCCESS && capture_state().capturing(handle_u64(stream))) capture_state().end(handle_u64(stream));
  return r;
}

CUresult on_cuStreamSynchronize(const Real<PFN_cuStreamSynchronize_v2000>& real, CUstream stream) {
  const CUresult r = after_success([&] { return real(stream); },
                                   trace::StreamSynchronize{handle_u64(real.effective_stream(stream))});
  collect_device_timings();
  return r;
}

CUresult on_cuStreamWaitEvent(const Real<PFN_cuStreamWaitEvent_v3020>& real, CUstream stream, CUevent event,
                              unsigned int flags) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  const CUresult r = real(stream, event, flags);
  if (r != CUDA_SUCCESS) return r;
  // Waiting on an event recorded in a capture makes the stream join that capture.
  if (capture_state().any() && !capture_state().capturing(s)) learn_capture_of(s);
  if (auto* rec = recorder()) rec->record(trace::StreamWaitEvent{s, handle_u64(event), capture_state().capturing(s)});
  return r;
}

CUresult on_cuEventCreate(const Real<PFN_cuEventCreate_v2000>& real, CUevent* event, unsigned int flags) {
  const CUresult r = real(event, flags);
  if (r == CUDA_SUCCESS) {
    if (auto* rec = recorder()) rec->record(trace::EventCreate{handle_u64(*event), flags});
  }
  return r;
}

CUresult on_cuEventRecord(const Real<PFN_cuEventRecord_v2000>& real, CUevent event, CUstream stream) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  return after_success([&] { return real(event, stream); },
                       trace::EventRecord{handle_u64(event), s, capture_state().capturing(s)});
}

CUresult on_cuEventRecordWithFlags(const Real<PFN_cuEventRecordWithFlags_v11010>& real, CUevent event,
                                   CUstream stream, unsigned int flags) {
  const uint64_t s = handle_u64(real.effective_stream(stream));
  return after_success([&] { return real(event, stream, flags); },
                       trace::EventRecord{handle_u64(event), s, capture_state().capturing(s)});
}

CUresult on_cuEventSynchronize(const Real<PFN_cuEventSynchronize_v2000>& real, CUevent event) {
  const CUresult r = after_success([&] { return real(event); }, trace::EventSynchronize{handle_u64(event)});
  collect_device_timings();
  return r;
}

CUresult on_cuEventDestroy(const Real<PFN_cuEventDestroy_v4000>& real, CUevent event) {
  return after_success([&] { return real(event); }, trace::EventDestroy{handle_u64(event)});
}

CUresult on_cuCtxSynchronize(const Real<PFN_cuCtxSynchronize_v2000>& real) {
  const CUresult r = after_success([&] { return real(); }, trace::ContextSynchronize{current_placement().context});
  collect_device_timings();
  return r;
}

CUresult on_cuCtxSynchronize(const Real<PFN_cuCtxSynchronize_v13000>& real, CUcontext context) {
  const uint64_t c = context != nullptr ? handle_u64(context) : current_placement().context;
  const CUresult r = after_success([&] { return real(context); }, trace::ContextSynchronize{c});
  collect_device_timings();
  return r;
}

CUresult on_cuStreamWaitValue32(const Real<PFN_cuStreamWaitValue32_v11070>& real, CUstream stream, CUdeviceptr addr,
                                cuuint32_t value, unsigned int flags) {
  return after_success([&] { return real(stream, addr, value, flags); },
                       mem_op(real.effective_stream(stream), trace::StreamMemOpKind::wait_value, addr, 4));
}

CUresult on_cuStreamWaitValue64(const Real<PFN_cuStreamWaitValue64_v11070>& real, CUstream stream, CUdeviceptr addr,
                                cuuint64_t value, unsigned int flags) {
  return after_success([&] { return real(stream, addr, value, flags); },
                       mem_op(real.effective_stream(stream), trace::StreamMemOpKind::wait_value, addr, 8));
}

CUresult on_cuStreamWriteValue32(const Real<PFN_cuStreamWriteValue32_v11070>& real, CUstream stream,
                                 CUdeviceptr addr, cuuint32_t value, unsigned int flags) {
  return after_success([&] { return real(stream, addr, value, flags); },
                       mem_op(real.effective_stream(stream), trace::StreamMemOpKind::write_value, addr, 4));
}

CUresult on_cuStreamWriteValue64(const Real<PFN_cuStreamWriteValue64_v11070>& real, CUstream stream,
                                 CUdeviceptr addr, cuuint64_t value, unsigned int flags) {
  return after_success([&] { return real(stream, addr, value, flags); },
                       mem_op(real.effective_stream(stream), trace::StreamMemOpKind::write_value, addr, 8));
}

CUresult on_cuStreamBatchMemOp(const Real<PFN_cuStreamBatchMemOp_v11070>& real, CUstream stream, unsigned int count,
                               CUstreamBatchMemOpParams* ops, unsigned int flags) {
  const CUresult r = real(stream, count, ops, flags);
  runtime::Recorder* rec = recorder();
  if (r != CUDA_SUCCESS || rec == nullptr || ops == nullptr) return r;
  const CUstream s = real.effective_stream(stream);
  for (unsigned i = 0; i < count; ++i) {
    const CUstreamBatchMemOpParams& op = ops[i];
    switch (op.operation) {
      case CU_STREAM_MEM_OP_WAIT_VALUE_32:
        rec->record(mem_op(s, trace::StreamMemOpKind::wait_value, op.waitValue.address, 4));
        break;
      case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        rec->record(mem_op(s, trace::StreamMemOpKind::wait_value, op.waitValue.address, 8));
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_32:
        rec->record(mem_op(s, trace::StreamMemOpKind::write_value, op.writeValue.address, 4));
        break;
      case CU_STREAM_MEM_OP_WRITE_VALUE_64:
        rec->record(mem_op(s, trace::StreamMemOpKind::write_value, op.writeValue.address, 8));
        break;
      case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        rec->record(mem_op(s, trace::StreamMemOpKind::flush_remote_writes, 0, 0));
        break;
      default:
        rec->record(mem_op(s, trace::StreamMemOpKind::barrier, 0, 0));
        break;
    }
  }
  return r;
}

}  // namespace tidepool::intercept
