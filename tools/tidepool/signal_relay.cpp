// Passing the signals meant for the program on to it while tidepool waits (see signal_relay.h).
#include "signal_relay.h"

#include <sys/wait.h>
#include <time.h>

#include <array>
#include <cerrno>
#include <cstdint>

#include "runtime/monotonic_clock.h"

namespace tidepool::cli {
namespace {

constexpr std::array kRelayed = {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};
constexpr uint64_t kGraceNs = 100'000'000;  // the program's time to end on a signal it got too

}  // namespace

SignalRelay::SignalRelay() {
  sigemptyset(&relayed_);
  for (int sig : kRelayed) sigaddset(&relayed_, sig);
  sigset_t blocked = relayed_;
  sigaddset(&blocked, SIGCHLD);
  sigprocmask(SIG_BLOCK, &blocked, &previous_);
}

SignalRelay::~SignalRelay() {
  // Signals still pending (one that came as the program ended) are dropped, not acted on: they were
  // meant for the program.
  const timespec none{};
  siginfo_t info;
  while (sigtimedwait(&relayed_, &info, &none) > 0) {
  }
  sigprocmask(SIG_SETMASK, &previous_, nullptr);
}

void SignalRelay::restore_in_child() const {
  sigprocmask(SIG_SETMASK, &previous_, nullptr);
}

int SignalRelay::wait_for(pid_t child) const {
  sigset_t awaited = relayed_;
  sigaddset(&awaited, SIGCHLD);
  std::array<uint64_t, kRelayed.size()> due{};  // per relayed signal: when to pass it on (0: not)
  for (;;) {
    int status = 0;
    const pid_t ended = waitpid(child, &status, WNOHANG);
    if (ended == child || (ended < 0 && errno != EINTR)) return status;
    const uint64_t now = runtime::monotonic_ns();
    uint64_t wake = now + 1'000'000'000;  // SIGCHLD wakes us; this is a safety net
    for (size_t i = 0; i < kRelayed.size(); ++i) {
      if (due[i] == 0) continue;
      if (due[i] <= now) {
        kill(child, kRelayed[i]);
        due[i] = 0;
      } else if (due[i] < wake) {
        wake = due[i];
      }
    }
    const uint64_t wait_ns = wake - now;
    const timespec timeout{static_cast<time_t>(wait_ns / 1'000'000'000),
                           static_cast<long>(wait_ns % 1'000'000'000)};
    siginfo_t info{};
    const int sig = sigtimedwait(&awaited, &info, &timeout);
    if (sig <= 0 || sig == SIGCHLD) continue;
    // From the kernel (a terminal's keys or hangup, to its whole foreground group), or from the
    // program itself: not for us to pass on.
    if (info.si_code > 0 || info.si_pid == child) continue;
    for (size_t i = 0; i < kRelayed.size(); ++i) {
      if (kRelayed[i] == sig && due[i] == 0) due[i] = runtime::monotonic_ns() + kGraceNs;
    }
  }
}

}  // namespace tidepool::cli
