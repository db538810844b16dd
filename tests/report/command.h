// Test helper: runs a shell command and captures its standard output and exit status.
#pragma once

#include <string>

namespace tidepool::report::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout (and stderr when the command redirects it)
};

CommandResult run_command(const std::string& command);

// The tidepool binary of this build.
std::string tidepool_binary();

}  // namespace tidepool::report::testing
