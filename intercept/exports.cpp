// Instantiates one wrapper per line of the hook list and exports it under the symbol's name.
//
// The wrapper has exactly the signature of the symbol's PFN_ type. It finds the real function of
// the same symbol, and calls the API's hook with it, unless this thread is already inside a hook
// (then it calls the real function straight away). A hook that throws gets the driver's answer
// returned instead (hook_failure.h). Exported symbols are tiny trampolines that jump
// through a pointer to the wrapper: that way the list, not a hand-written signature, defines each
// symbol. Only these symbols, dlsym and the NVTX injection entry are exported (exports.map). With
// TIDEPOOL_SELF_TIMING=1 the slots point at timed twins of the wrappers instead (self_timing.h).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <array>
#include <cstdlib>

#include "intercept/hook_abi.h"
#include "intercept/hook_failure.h"
#include "intercept/hook_index.h"
#include "intercept/hook_scope.h"
#include "intercept/hook_table.h"
#include "intercept/real_driver.h"
#include "intercept/self_timing.h"
#include "runtime/monotonic_clock.h"
#include "runtime/settings.h"

namespace tidepool::intercept {
namespace {

template <class Pfn>
struct Wrapper;

template <class R, class... Args>
struct Wrapper<R(CUDAAPI*)(Args...)> {
  using Pfn = R(CUDAAPI*)(Args...);

  // `timed`: the twin that self-timing puts in the slot (self_timing.h): the hook gets timed_real
  // for the real function, and the call is counted.
  template <HookIndex index, StreamMode mode, typename HookOf<Pfn>::type* hook, bool timed = false>
  static R CUDAAPI call(Args... args) {
    const auto real = reinterpret_cast<Pfn>(real_function(index));
    if (real == nullptr) return CUDA_ERROR_NOT_INITIALIZED;  // no driver: said once at load
    const HookScope scope;
    if (scope.nested()) return real(args...);
    const auto symbol = [] { return hook_rows()[static_cast<size_t>(index)].symbol; };
    if constexpr (!timed) {
      return run_hook(symbol, Real<Pfn>{real, mode}, hook, args...);
    } else {
      const uint64_t start = runtime::monotonic_ns();
      t_driver_ns = 0;
      const R result = run_hook(symbol, Real<Pfn>{&timed_real<index>, mode}, hook, args...);
      add_self_timing(static_cast<size_t>(index), runtime::monotonic_ns() - start, t_driver_ns);
      return result;
    }
  }

  template <HookIndex index>
  static R CUDAAPI timed_real(Args... args) {
    const auto real = reinterpret_cast<Pfn>(real_function(index));
    const uint64_t start = runtime::monotonic_ns();
    const R result = real(args...);
    t_driver_ns += runtime::monotonic_ns() - start;
    return result;
  }
};

}  // namespace
}  // namespace tidepool::intercept

// The pointer each exported trampoline jumps through.
#define TIDEPOOL_SLOT(api, symbol, version, mode)                                                 \
  extern "C" {                                                                                    \
  __attribute__((used)) constinit PFN_##api##_##version tidepool_slot_##symbol =                 \
      &tidepool::intercept::Wrapper<PFN_##api##_##version>::call<                                 \
          tidepool::intercept::HookIndex::k_##symbol, tidepool::intercept::StreamMode::mode,      \
          &tidepool::intercept::on_##api>;                                                        \
  }
TIDEPOOL_HOOK_LIST(TIDEPOOL_SLOT)
#undef TIDEPOOL_SLOT

// The exported symbols: an indirect jump, which leaves every argument register untouched.
#if defined(__x86_64__)
#define TIDEPOOL_TRAMPOLINE(api, symbol, version, mode)                                          \
  asm(".text\n.globl " #symbol "\n.type " #symbol ",@function\n.p2align 4\n" #symbol ":\n"        \
      "\tjmp *tidepool_slot_" #symbol "(%rip)\n.size " #symbol ", .-" #symbol "\n");
#elif defined(__aarch64__)
#define TIDEPOOL_TRAMPOLINE(api, symbol, version, mode)                                          \
  asm(".text\n.globl " #symbol "\n.type " #symbol ",%function\n.p2align 4\n" #symbol ":\n"        \
      "\tadrp x16, tidepool_slot_" #symbol "\n\tldr x16, [x16, :lo12:tidepool_slot_" #symbol "]\n" \
      "\tbr x16\n.size " #symbol ", .-" #symbol "\n");
#else
#error "tidepool: trampolines exist for x86-64 and aarch64 only (the CUDA platforms)"
#endif
TIDEPOOL_HOOK_LIST(TIDEPOOL_TRAMPOLINE)
#undef TIDEPOOL_TRAMPOLINE

namespace tidepool::intercept {
namespace {

// Constant-initialised: dlsym may be asked before our constructors have run.
constexpr HookRow kRows[] = {
#define TIDEPOOL_ROW(api, symbol, version, mode) \
  {#api, #symbol, +[]() -> void* { return reinterpret_cast<void*>(tidepool_slot_##symbol); }},
    TIDEPOOL_HOOK_LIST(TIDEPOOL_ROW)
#undef TIDEPOOL_ROW
};

// Self-timing asked for: every slot to its wrapper's timed twin, before the program's first call.
__attribute__((constructor)) void time_the_hooks_if_asked() {
  const runtime::Settings& s = runtime::settings();
  if (!s.self_timing || s.disabled) return;
#define TIDEPOOL_TIMED_SLOT(api, symbol, version, mode)                                         \
  tidepool_slot_##symbol =                                                                      \
      &Wrapper<PFN_##api##_##version>::call<HookIndex::k_##symbol, StreamMode::mode, &on_##api, \
                                            true>;
  TIDEPOOL_HOOK_LIST(TIDEPOOL_TIMED_SLOT)
#undef TIDEPOOL_TIMED_SLOT
  std::atexit(print_self_timing);
}

}  // namespace

std::span<const HookRow> hook_rows() { return kRows; }

}  // namespace tidepool::intercept
