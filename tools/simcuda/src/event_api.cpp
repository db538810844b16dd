// cuEventCreate/Record/Query/Synchronize/ElapsedTime/Destroy; elapsed times are simulated.
#include <map>
#include <memory>
#include <mutex>

#include "tools/simcuda/src/capture.h"
#include "tools/simcuda/src/event.h"
#include "tools/simcuda/src/scheduler.h"
#include "tools/simcuda/src/timeline.h"

namespace simcuda {
namespace {

struct Event {
  unsigned flags = 0;
  OpPtr record;
};

struct Events {
  std::mutex mutex;
  std::map<CUevent, std::unique_ptr<Event>> live;
};

Events& events() {
  static Events& instance = *new Events;
  return instance;
}

// Runs f(event) under the registry's lock; CUDA_ERROR_INVALID_HANDLE for an unknown handle.
template <class F>
CUresult with_event(CUevent handle, F f) {
  if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
  const std::lock_guard lock(events().mutex);
  const auto it = events().live.find(handle);
  if (it == events().live.end()) return CUDA_ERROR_INVALID_HANDLE;
  return f(*it->second);
}

CUresult record(CUevent handle, CUstream stream_handle, bool per_thread) {
  if (const CUresult r = with_event(handle, [](Event&) { return CUDA_SUCCESS; }); r != CUDA_SUCCESS) return r;
  Stream* stream = nullptr;
  if (const CUresult r = resolve_stream(stream_handle, per_thread, stream); r != CUDA_SUCCESS) return r;
  if (const CUresult r = capture_gate(stream, false); r != CUDA_SUCCESS) return r;
  OpPtr op = enqueue(*stream, Engine::none, 0, nullptr);
  return with_event(handle, [&](Event& e) {
    e.record = std::move(op);
    return CUDA_SUCCESS;
  });
}

CUresult elapsed(float* ms, CUevent start, CUevent end) {
  if (ms == nullptr) return CUDA_ERROR_INVALID_VALUE;
  OpPtr records[2];
  for (int i = 0; i < 2; ++i) {
    const CUresult r = with_event(i == 0 ? start : end, [&](Event& e) {
      if (e.record == nullptr || (e.flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_HANDLE;
      if (e.record->captured != nullptr) return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;  // never runs
      records[i] = e.record;
      return CUDA_SUCCESS;
    });
    if (r != CUDA_SUCCESS) return r;
  }
  if (!records[0]->done.load() || !records[1]->done.load()) return CUDA_ERROR_NOT_READY;
  const int64_t from = timeline().end_of(records[0]);
  const int64_t to = timeline().end_of(records[1]);
  *ms = static_cast<float>(static_cast<double>(to - from) / 1e6);
  return CUDA_SUCCESS;
}

}  // namespace

CUresult latest_record(CUevent handle, OpPtr& out) {
  return with_event(handle, [&](Event& e) {
    out = e.record;
    return CUDA_SUCCESS;
  });
}

}  // namespace simcuda

using namespace simcuda;

SIMCUDA_API CUresult cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  return guard([&] {
    Context* ctx = nullptr;
    if (const CUresult r = require_context(ctx); r != CUDA_SUCCESS) return r;
    constexpr unsigned kKnown = CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
    if (phEvent == nullptr || (Flags & ~kKnown) != 0) return CUDA_ERROR_INVALID_VALUE;
    if ((Flags & CU_EVENT_INTERPROCESS) && !(Flags & CU_EVENT_DISABLE_TIMING)) return CUDA_ERROR_INVALID_VALUE;
    auto event = std::make_unique<Event>();
    event->flags = Flags;
    const auto handle = reinterpret_cast<CUevent>(event.get());
    const std::lock_guard lock(events().mutex);
    events().live.emplace(handle, std::move(event));
    *phEvent = handle;
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuEventDestroy_v2(CUevent hEvent) {
  return guard([&] {
    if (const CUresult r = require_init(); r != CUDA_SUCCESS) return r;
    const std::lock_guard lock(events().mutex);
    return events().live.erase(hEvent) == 1 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
  });
}

SIMCUDA_API CUresult cuEventDestroy(CUevent hEvent) { return cuEventDestroy_v2(hEvent); }

SIMCUDA_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  return guard([&] { return record(hEvent, hStream, false); });
}
SIMCUDA_API CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream) {
  return guard([&] { return record(hEvent, hStream, true); });
}
SIMCUDA_API CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return guard([&] { return flags & ~unsigned{CU_EVENT_RECORD_EXTERNAL} ? CUDA_ERROR_INVALID_VALUE : record(hEvent, hStream, false); });
}
SIMCUDA_API CUresult cuEventRecordWithFlags_ptsz(CUevent hEvent, CUstream hStream, unsigned int flags) {
  return guard([&] { return flags & ~unsigned{CU_EVENT_RECORD_EXTERNAL} ? CUDA_ERROR_INVALID_VALUE : record(hEvent, hStream, true); });
}

SIMCUDA_API CUresult cuEventQuery(CUevent hEvent) {
  return guard([&] {
    OpPtr op;
    if (const CUresult r = latest_record(hEvent, op); r != CUDA_SUCCESS) return r;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    return op == nullptr || op->done.load() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  });
}

SIMCUDA_API CUresult cuEventSynchronize(CUevent hEvent) {
  return guard([&] {
    OpPtr op;
    if (const CUresult r = latest_record(hEvent, op); r != CUDA_SUCCESS) return r;
    if (const CUresult r = capture_gate(nullptr, true); r != CUDA_SUCCESS) return r;
    host_wait(op);
    return CUDA_SUCCESS;
  });
}

SIMCUDA_API CUresult cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return guard([&] { return elapsed(pMilliseconds, hStart, hEnd); });
}
SIMCUDA_API CUresult cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return guard([&] { return elapsed(pMilliseconds, hStart, hEnd); });
}
