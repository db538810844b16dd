// SIGSEGV/SIGBUS handler: an access to an unmapped or inaccessible device page is an illegal
// address, as on a GPU; other faults go to the previous handler.
#include "tools/simcuda/src/fault_handler.h"

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tools/simcuda/src/device_memory.h"

namespace simcuda {
namespace {

thread_local const char* work_name = nullptr;
struct sigaction previous_segv;
struct sigaction previous_bus;

void write_text(const char* text) {
  const ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void on_fault(int sig, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<uint64_t>(info->si_addr);
  if (in_device_range(address)) {
    char hex[19] = "0x";
    for (int i = 0; i < 16; ++i) hex[2 + i] = "0123456789abcdef"[(address >> (60 - 4 * i)) & 0xf];
    hex[18] = '\0';
    write_text("simcuda: illegal address ");
    write_text(hex);
    if (work_name != nullptr) {
      write_text(" in kernel ");
      write_text(work_name);
    } else {
      write_text(" in host code");
    }
    write_text("\n");
    signal(SIGABRT, SIG_DFL);
    abort();
  }
  const struct sigaction& previous = sig == SIGSEGV ? previous_segv : previous_bus;
  if (previous.sa_flags & SA_SIGINFO) {
    previous.sa_sigaction(sig, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
  } else {
    sigaction(sig, &previous, nullptr);  // the fault repeats on return, with the default action
  }
}

}  // namespace

void install_fault_handler() {
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv);
  sigaction(SIGBUS, &action, &previous_bus);
}

void set_current_work(const char* name) { work_name = name; }
const char* current_work() { return work_name; }

}  // namespace simcuda
