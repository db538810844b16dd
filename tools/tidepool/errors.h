// How subcommands report failure: throw UsageError for a bad invocation (exit 2) and any
// std::exception for a failure (exit 1); main prints one line "tidepool: <what>". A command that
// must exit with another code (run: the program's own) calls set_exit_code.
#pragma once

#include <stdexcept>

namespace tidepool::cli {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void set_exit_code(int code);
int exit_code();

}  // namespace tidepool::cli
