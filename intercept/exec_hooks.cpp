// The exec family: a program that replaces itself loses the recorder's per-thread buffers and
// whatever the writer has not written yet (up to its 200 ms period), so everything recorded is
// written before the real call. If the exec fails, recording goes on.
//
// glibc's exec functions call the system call directly, not each other, so each is hooked. A
// child of vfork (which shares its parent's memory and runs no fork handlers) writes nothing: the
// buffers are its parent's.
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdarg>
#include <vector>

#include "intercept/cupti_timing.h"
#include "intercept/real_driver.h"
#include "runtime/recorder.h"

namespace tidepool::intercept {
namespace {

pid_t g_recording_process = 0;

__attribute__((constructor)) void remember_process() {
  g_recording_process = getpid();
  pthread_atfork(nullptr, nullptr, [] { g_recording_process = getpid(); });
}

void write_before_exec() {
  if (getpid() != g_recording_process) return;
  cupti_flush(true);
  runtime::Recorder::flush();
}

template <class Fn>
Fn next(const char* name) {
  return reinterpret_cast<Fn>(libc_dlsym(RTLD_NEXT, name));
}

// The arguments of execl and its variants, up to the terminating null pointer (and, when
// `with_environment`, the environment after it).
std::vector<char*> collect_arguments(const char* first, va_list args, char* const** environment) {
  std::vector<char*> argv{const_cast<char*>(first)};
  while (argv.back() != nullptr) argv.push_back(va_arg(args, char*));
  if (environment != nullptr) *environment = va_arg(args, char* const*);
  return argv;
}

}  // namespace
}  // namespace tidepool::intercept

using tidepool::intercept::next;
using tidepool::intercept::write_before_exec;

extern "C" {

__attribute__((visibility("default"))) int execve(const char* path, char* const argv[], char* const envp[]) {
  static const auto real = next<int (*)(const char*, char* const*, char* const*)>("execve");
  write_before_exec();
  return real(path, argv, envp);
}

__attribute__((visibility("default"))) int execv(const char* path, char* const argv[]) {
  static const auto real = next<int (*)(const char*, char* const*)>("execv");
  write_before_exec();
  return real(path, argv);
}

__attribute__((visibility("default"))) int execvp(const char* file, char* const argv[]) {
  static const auto real = next<int (*)(const char*, char* const*)>("execvp");
  write_before_exec();
  return real(file, argv);
}

__attribute__((visibility("default"))) int execvpe(const char* file, char* const argv[], char* const envp[]) {
  static const auto real = next<int (*)(const char*, char* const*, char* const*)>("execvpe");
  write_before_exec();
  return real(file, argv, envp);
}

__attribute__((visibility("default"))) int fexecve(int fd, char* const argv[], char* const envp[]) {
  static const auto real = next<int (*)(int, char* const*, char* const*)>("fexecve");
  write_before_exec();
  return real(fd, argv, envp);
}

__attribute__((visibility("default"))) int execveat(int dirfd, const char* path, char* const argv[],
                                                    char* const envp[], int flags) {
  static const auto real = next<int (*)(int, const char*, char* const*, char* const*, int)>("execveat");
  write_before_exec();
  return real(dirfd, path, argv, envp, flags);
}

__attribute__((visibility("default"))) int execl(const char* path, const char* arg, ...) {
  va_list args;
  va_start(args, arg);
  const std::vector<char*> argv = tidepool::intercept::collect_arguments(arg, args, nullptr);
  va_end(args);
  return execv(path, argv.data());
}

__attribute__((visibility("default"))) int execlp(const char* file, const char* arg, ...) {
  va_list args;
  va_start(args, arg);
  const std::vector<char*> argv = tidepool::intercept::collect_arguments(arg, args, nullptr);
  va_end(args);
  return execvp(file, argv.data());
}

__attribute__((visibility("default"))) int execle(const char* path, const char* arg, ...) {
  va_list args;
  va_start(args, arg);
  char* const* environment = nullptr;
  const std::vector<char*> argv = tidepool::intercept::collect_arguments(arg, args, &environment);
  va_end(args);
  return execve(path, argv.data(), environment);
}

}  // extern "C"
