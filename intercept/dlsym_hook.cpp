// Our dlsym: programs that dlopen libcuda.so.1 and look driver functions up (PyTorch, Triton,
// cuDNN) get our wrapper for every hooked symbol whose answer would have been the driver's own.
//
// Every other answer comes from the C library's dlsym *as if called by the program*: glibc
// resolves RTLD_NEXT relative to its caller's return address, so the exported `dlsym` is a small
// trampoline that asks tidepool_dlsym_override first and otherwise jumps (not calls) to the real
// dlsym with the program's return address still on the stack.
#include <dlfcn.h>

#include "intercept/hook_index.h"
#include "intercept/hook_table.h"
#include "intercept/real_driver.h"

namespace tidepool::intercept {
namespace {

// Our wrapper when `name` is hooked and `handle` would have answered with the driver's own
// function; nullptr to let the C library answer.
void* override_answer(void* handle, const char* name) {
  if (loading_real_driver()) return nullptr;
  const HookRow* row = find_hook_by_symbol(name);
  if (row == nullptr || !real_driver_loaded()) return nullptr;
  const auto index = static_cast<HookIndex>(row - hook_rows().data());
  // For RTLD_NEXT this asks relative to us rather than the caller: if the driver's own function
  // comes after us, it also comes after any interposer preloaded before us, whose next is us.
  void* answer = libc_dlsym(handle, name);
  return answer != nullptr && answer == driver_own_function(index) ? row->wrapper() : nullptr;
}

}  // namespace
}  // namespace tidepool::intercept

// The sanitizer runtimes look their own interceptors up with dlsym while they initialize, before
// instrumented code may run: these entry points are not instrumented, and leave everything but
// driver names to the C library before touching anything that is.
#define TIDEPOOL_UNINSTRUMENTED __attribute__((used, no_sanitize("address", "undefined")))

extern "C" {
// Called from the trampoline below.
TIDEPOOL_UNINSTRUMENTED void* tidepool_dlsym_override(void* handle, const char* name) {
  if (name == nullptr || name[0] != 'c' || name[1] != 'u') return nullptr;
  return tidepool::intercept::override_answer(handle, name);
}
// Called from the trampoline below: the C library's own dlsym.
TIDEPOOL_UNINSTRUMENTED void* tidepool_real_dlsym_pointer() {
  // Racing first calls find the same answer; a plain word is enough.
  static void* real = nullptr;
  if (real == nullptr) real = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
  if (real == nullptr) real = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
  if (real == nullptr) real = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.17");
  return real;
}
}

#if defined(__x86_64__)
// rsp is 8 mod 16 at entry; two pushes and 8 bytes keep calls 16-byte aligned.
asm(R"(
.text
.globl dlsym
.type dlsym,@function
.p2align 4
dlsym:
  push %rdi
  push %rsi
  sub $8, %rsp
  call tidepool_dlsym_override
  test %rax, %rax
  jnz 1f
  call tidepool_real_dlsym_pointer
  mov %rax, %r11
  add $8, %rsp
  pop %rsi
  pop %rdi
  jmp *%r11
1:
  add $24, %rsp
  ret
.size dlsym, .-dlsym
)");
#else
// Without the trampoline, RTLD_NEXT lookups made by the program resolve relative to us.
extern "C" __attribute__((visibility("default"))) void* dlsym(void* handle, const char* name) {
  if (void* ours = tidepool_dlsym_override(handle, name)) return ours;
  return tidepool::intercept::libc_dlsym(handle, name);
}
#endif
