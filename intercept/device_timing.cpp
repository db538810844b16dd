// Event pairs around launches and copies, and their harvest into DeviceTiming records.
#include "intercept/device_timing.h"

#include <cudaTypedefs.h>

#include <deque>
#include <mutex>
#include <vector>

#include "intercept/capture_state.h"
#include "intercept/cupti_timing.h"
#include "intercept/kind_counts.h"
#include "intercept/real_driver.h"
#include "intercept/recording.h"
#include "runtime/settings.h"
#include "runtime/thread_scratch.h"

namespace tidepool::intercept {
namespace {

struct Driver {
  PFN_cuEventCreate_v2000 create = nullptr;
  PFN_cuEventRecord_v2000 record = nullptr;
  PFN_cuEventQuery_v2000 query = nullptr;
  PFN_cuEventElapsedTime_v2000 elapsed = nullptr;
  bool usable() const { return create && record && query && elapsed; }
};

const Driver& driver() {
  static const Driver d = [] {
    Driver x;
    x.create = reinterpret_cast<PFN_cuEventCreate_v2000>(real_driver_symbol("cuEventCreate"));
    x.record = reinterpret_cast<PFN_cuEventRecord_v2000>(real_driver_symbol("cuEventRecord"));
    x.query = reinterpret_cast<PFN_cuEventQuery_v2000>(real_driver_symbol("cuEventQuery"));
    void* elapsed = real_driver_symbol("cuEventElapsedTime_v2");
    if (elapsed == nullptr) elapsed = real_driver_symbol("cuEventElapsedTime");
    x.elapsed = reinterpret_cast<PFN_cuEventElapsedTime_v2000>(elapsed);
    return x;
  }();
  return d;
}

struct Pending {
  uint64_t op_id;
  CUevent start;
  CUevent end;
};

struct Timing {
  std::mutex mutex;
  std::vector<CUevent> free_events;
  std::deque<Pending> pending;
  CUevent origin = nullptr;
};

Timing& timing() {
  static auto* const t = new Timing;
  return *t;
}

// Our events live as long as the process: they are few and reused.
CUevent take_event(Timing& t) {
  if (!t.free_events.empty()) {
    CUevent e = t.free_events.back();
    t.free_events.pop_back();
    return e;
  }
  CUevent e = nullptr;
  return driver().create(&e, CU_EVENT_DEFAULT) == CUDA_SUCCESS ? e : nullptr;
}

bool enabled() {
  static const bool on = runtime::settings().device_timing && !cupti_timing_active() && driver().usable();
  return on;
}

// Whether this occurrence of an operation kind is one of the sampled ones (counted per thread).
bool sampled(uint64_t kind) {
  struct Counts {};
  const uint32_t n = runtime::ThreadScratch<KindCounts, Counts>::get()->meet(kind);
  return n < kSampleFirst || (n - kSampleFirst) % kSampleEvery == kSampleEvery - 1;
}

// Harvests completed pairs in order (at most `limit`); the caller holds the lock. Not while a
// capture is under way: querying an event is an unsafe call that would invalidate a capture in
// the global mode.
void harvest(Timing& t, size_t limit) {
  if (capture_state().any()) return;
  runtime::Recorder* rec = recorder();
  while (!t.pending.empty() && limit-- > 0) {
    const Pending p = t.pending.front();
    if (driver().query(p.end) != CUDA_SUCCESS) break;
    float from_origin = 0, duration = 0;
    if (rec != nullptr && driver().elapsed(&from_origin, t.origin, p.start) == CUDA_SUCCESS &&
        driver().elapsed(&duration, p.start, p.end) == CUDA_SUCCESS) {
      const auto start_ns = static_cast<uint64_t>(static_cast<double>(from_origin) * 1e6);
      rec->record(trace::DeviceTiming{p.op_id, start_ns, start_ns + static_cast<uint64_t>(static_cast<double>(duration) * 1e6)});
    }
    t.free_events.push_back(p.start);
    t.free_events.push_back(p.end);
    t.pending.pop_front();
  }
}

}  // namespace

DeviceTimer::DeviceTimer(uint64_t op_id, CUstream stream, bool captured, uint64_t kind)
    : op_id_(op_id), stream_(stream) {
  if (captured) return;
  if (cupti_timing_active()) {
    cupti_push_operation(op_id);
    correlated_ = true;
    return;
  }
  if (!enabled() || capture_state().any() || !sampled(kind)) return;
  Timing& t = timing();
  const std::lock_guard lock(t.mutex);
  if (t.origin == nullptr) {
    t.origin = take_event(t);
    if (t.origin == nullptr || driver().record(t.origin, stream) != CUDA_SUCCESS) {
      t.origin = nullptr;
      return;
    }
  }
  start_ = take_event(t);
  if (start_ != nullptr && driver().record(start_, stream) != CUDA_SUCCESS) {
    t.free_events.push_back(start_);
    start_ = nullptr;
  }
}

DeviceTimer::~DeviceTimer() {
  if (correlated_) cupti_pop_operation();
  if (start_ == nullptr) return;
  Timing& t = timing();
  const std::lock_guard lock(t.mutex);
  t.free_events.push_back(start_);
}

void DeviceTimer::finish() {
  if (correlated_) {
    cupti_pop_operation();
    correlated_ = false;
  }
  if (start_ == nullptr) return;
  Timing& t = timing();
  const std::lock_guard lock(t.mutex);
  CUevent end = take_event(t);
  if (end != nullptr && driver().record(end, stream_) == CUDA_SUCCESS) {
    t.pending.push_back({op_id_, start_, end});
  } else {
    if (end != nullptr) t.free_events.push_back(end);
    t.free_events.push_back(start_);
  }
  start_ = nullptr;
  harvest(t, 4);
}

void collect_device_timings() {
  if (capture_state().any()) return;  // nothing of ours while a capture is under way
  cupti_flush(false);
  if (!enabled()) return;
  Timing& t = timing();
  const std::lock_guard lock(t.mutex);
  harvest(t, SIZE_MAX);
}

}  // namespace tidepool::intercept
