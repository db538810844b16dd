// popen-based command runner for the end-to-end report tests.
#include "command.h"

#include <sys/wait.h>

#include <cstdio>

namespace tidepool::report::testing {

CommandResult run_command(const std::string& command) {
  CommandResult result;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string tidepool_binary() { return std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool"; }

}  // namespace tidepool::report::testing
