// `tidepool run` waits for the program it started; signals sent to tidepool that were meant for the
// program (a `kill` of tidepool's pid by a script, a scheduler or a container runtime) are passed
// on to it, so that stopping tidepool stops the program instead of leaving it running, orphaned.
//
// Which signals: SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1 and SIGUSR2, when another process sent
// them (kill, sigqueue), the program itself excepted. What a terminal sends (Ctrl-C, Ctrl-\, a
// hangup) goes to its whole foreground group, the program included, so it is never passed on.
// Nor is a signal the program already got: a whole process group or cgroup may be signalled at
// once (`timeout`, `killpg`, systemd), and the program then has it too. Whether it did cannot be
// asked, so a signal is passed on only if the program is still running 100 ms after it came: a
// program that ends on it is never signalled twice; one that handles it and runs on for longer
// gets it a second time, as from any init-like wrapper.
#pragma once

#include <signal.h>
#include <sys/types.h>

namespace tidepool::cli {

class SignalRelay {
 public:
  // Blocks the relayed signals (and SIGCHLD): made before the fork, so that none is lost to its
  // default action before the program runs.
  SignalRelay();
  ~SignalRelay();  // the signal mask as it was
  SignalRelay(const SignalRelay&) = delete;
  SignalRelay& operator=(const SignalRelay&) = delete;

  // In the forked child, before exec: the program starts with the mask tidepool started with.
  void restore_in_child() const;
  // Waits for `child` to end, passing signals on meanwhile; returns its wait status.
  int wait_for(pid_t child) const;

 private:
  sigset_t relayed_;
  sigset_t previous_;
};

}  // namespace tidepool::cli
