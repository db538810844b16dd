// Loads CUPTI, enables its activity records and turns them into DeviceTiming records.
#include "intercept/cupti_timing.h"

#include <cupti_activity.h>  // types only: libcupti is opened at run time
#include <dlfcn.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "intercept/cupti_correlation.h"
#include "intercept/hook_scope.h"
#include "intercept/recording.h"
#include "runtime/settings.h"

namespace tidepool::intercept {
namespace {

constexpr size_t kBufferBytes = 4 << 20;
constexpr auto kFlushPeriod = std::chrono::milliseconds(200);
constexpr CUpti_ExternalCorrelationKind kOurKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0;

// Where the toolkit keeps libcupti, then the library search path.
constexpr const char* kLibraryPaths[] = {
    "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so",
    "/usr/local/cuda/lib64/libcupti.so",
    "libcupti.so",
};

struct Api {
  decltype(&cuptiGetTimestamp) timestamp = nullptr;
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityPushExternalCorrelationId) push = nullptr;
  decltype(&cuptiActivityPopExternalCorrelationId) pop = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
  decltype(&cuptiSetThreadIdType) set_thread_id_type = nullptr;
};

struct Cupti {
  Api api;
  std::unique_ptr<CuptiCorrelation> correlation;
  std::atomic<int64_t> last_flush_ns{0};
  bool runtime_calls = false;  // runtime API records name their threads as gettid does
};

uint32_t this_thread_id() {
  static thread_local const auto tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tid;
}

Cupti* g_cupti = nullptr;  // set once, before any operation is timed; never freed
std::atomic<bool> g_running{false};  // CUPTI started and records activity

template <class Fn>
bool resolve(void* library, const char* name, Fn& out) {
  out = reinterpret_cast<Fn>(dlsym(library, name));
  return out != nullptr;
}

std::string describe(const Api& api, CUptiResult r) {
  const char* text = nullptr;
  if (api.result_string != nullptr && api.result_string(r, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "error " + std::to_string(static_cast<int>(r));
}

void warn(const std::string& why) {
  std::fprintf(stderr, "tidepool: --cupti: %s; device times come from events instead\n", why.c_str());
}

void CUPTIAPI give_buffer(uint8_t** buffer, size_t* size, size_t* max_records) {
  const HookScope::Callback scope;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

// The correlation id, start and end of an activity record of a kind we enabled.
template <class Activity>
void note_activity(Cupti& c, runtime::Recorder* rec, const CUpti_Activity* record) {
  const auto* a = reinterpret_cast<const Activity*>(record);
  if (const auto timing = c.correlation->on_activity(a->correlationId, a->start, a->end); timing && rec) {
    rec->record(*timing);
  }
}

void CUPTIAPI take_buffer(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_bytes) {
  const HookScope::Callback scope;
  Cupti& c = *g_cupti;
  runtime::Recorder* rec = recorder();
  CUpti_Activity* record = nullptr;
  while (c.api.next_record(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_KERNEL:
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: note_activity<CUpti_ActivityKernel10>(c, rec, record); break;
      case CUPTI_ACTIVITY_KIND_MEMCPY: note_activity<CUpti_ActivityMemcpy6>(c, rec, record); break;
      case CUPTI_ACTIVITY_KIND_MEMSET: note_activity<CUpti_ActivityMemset4>(c, rec, record); break;
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        const auto* call = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        if (const auto timing = c.correlation->on_runtime_call(call->correlationId, call->threadId, call->start,
                                                               call->end);
            timing && rec) {
          rec->record(*timing);
        }
        break;
      }
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        const auto* x = reinterpret_cast<const CUpti_ActivityExternalCorrelation*>(record);
        if (x->externalKind != kOurKind) break;
        if (const auto timing = c.correlation->on_external(x->correlationId, x->externalId); timing && rec) {
          rec->record(*timing);
        }
        break;
      }
      default: break;
    }
  }
  std::free(buffer);
}

// Opens CUPTI and starts its activity records; nullptr (after one warning) when it cannot.
Cupti* start() {
  void* library = nullptr;
  for (const char* path : kLibraryPaths) {
    if ((library = dlopen(path, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
  }
  if (library == nullptr) {
    warn("cannot load libcupti.so (looked in /usr/local/cuda/extras/CUPTI/lib64, /usr/local/cuda/lib64 and the library path)");
    return nullptr;
  }
  auto c = std::make_unique<Cupti>();
  Api& api = c->api;
  if (!resolve(library, "cuptiGetTimestamp", api.timestamp) || !resolve(library, "cuptiActivityEnable", api.enable) ||
      !resolve(library, "cuptiActivityRegisterCallbacks", api.register_callbacks) ||
      !resolve(library, "cuptiActivityGetNextRecord", api.next_record) ||
      !resolve(library, "cuptiActivityFlushAll", api.flush_all) ||
      !resolve(library, "cuptiActivityPushExternalCorrelationId", api.push) ||
      !resolve(library, "cuptiActivityPopExternalCorrelationId", api.pop)) {
    warn("libcupti.so lacks the activity API");
    return nullptr;
  }
  resolve(library, "cuptiGetResultString", api.result_string);
  resolve(library, "cuptiSetThreadIdType", api.set_thread_id_type);
  uint64_t origin = 0;
  if (const CUptiResult r = api.timestamp(&origin); r != CUPTI_SUCCESS) {
    warn("cuptiGetTimestamp: " + describe(api, r));
    return nullptr;
  }
  c->correlation = std::make_unique<CuptiCorrelation>(origin);
  // From here on CUPTI may call our buffer callbacks, which use g_cupti: it is never freed.
  g_cupti = c.release();
  if (const CUptiResult r = g_cupti->api.register_callbacks(give_buffer, take_buffer); r != CUPTI_SUCCESS) {
    warn("cuptiActivityRegisterCallbacks: " + describe(g_cupti->api, r));
    return nullptr;
  }
  // CUPTI writes an external-correlation record only ahead of a driver or runtime API record
  // (cupti_activity.h, cuptiActivityPushExternalCorrelationId), so the driver's API records are
  // enabled too, and skipped when read: without them no operation is ever matched. A program on
  // the CUDA runtime gets no driver API records (its driver calls are inside runtime calls), so
  // runtime API records stand in for them (cupti_correlation.h), where their thread ids can be
  // made the system's.
  for (const CUpti_ActivityKind kind : {CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_DRIVER,
                                        CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                        CUPTI_ACTIVITY_KIND_MEMSET}) {
    if (const CUptiResult r = g_cupti->api.enable(kind); r != CUPTI_SUCCESS) {
      warn("cuptiActivityEnable: " + describe(g_cupti->api, r));
      return nullptr;
    }
  }
  g_cupti->runtime_calls = g_cupti->api.set_thread_id_type != nullptr &&
                           g_cupti->api.set_thread_id_type(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) == CUPTI_SUCCESS &&
                           g_cupti->api.enable(CUPTI_ACTIVITY_KIND_RUNTIME) == CUPTI_SUCCESS;
  std::atexit([] { cupti_flush(true); });
  g_running.store(true, std::memory_order_release);
  return g_cupti;
}

Cupti* cupti() {
  static Cupti* const c = [] {
    const runtime::Settings& s = runtime::settings();
    if (!s.cupti || !s.device_timing || s.disabled) return static_cast<Cupti*>(nullptr);
    const HookScope scope;  // CUPTI's driver calls while it starts are not the program's
    return start();
  }();
  return c;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

bool cupti_timing_active() { return cupti() != nullptr; }

void cupti_push_operation(uint64_t op_id) {
  Cupti& c = *cupti();
  c.api.push(kOurKind, op_id);
  if (uint64_t now = 0; c.runtime_calls && c.api.timestamp(&now) == CUPTI_SUCCESS) {
    c.correlation->on_call(this_thread_id(), now, op_id);
  }
}

void cupti_pop_operation() {
  uint64_t last = 0;
  cupti()->api.pop(kOurKind, &last);
}

void cupti_flush(bool always) {
  if (!g_running.load(std::memory_order_acquire)) return;  // never starts CUPTI
  Cupti* c = g_cupti;
  const int64_t now = now_ns();
  if (!always && now - c->last_flush_ns.load(std::memory_order_relaxed) < kFlushPeriod.count() * 1'000'000) return;
  c->last_flush_ns.store(now, std::memory_order_relaxed);
  const HookScope scope;
  c->api.flush_all(always ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
}

}  // namespace tidepool::intercept
