// How subcommands report failure: throw UsageError for a bad invocation (exit 2), ExitCodeError for
// a failure with a code of its own, and any other std::exception for a failure (exit 1); main
// prints one line "tidepool: <what>". A command that must exit with another code when it succeeds
// (run: the program's own) calls set_exit_code.
#pragma once

#include <stdexcept>
#include <string>

namespace tidepool::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A failure with an exit code of its own: run's 127 (no such program) and 126 (found, but it cannot
// be run), as a shell gives them.
struct ExitCodeError : std::runtime_error {
  ExitCodeError(const std::string& what, int exit_code)
      : std::runtime_error(what), code(exit_code) {}
  int code;
};

void set_exit_code(int code);
int exit_code();

}  // namespace tidepool::cli
