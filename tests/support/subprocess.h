// Test support: running a program as a subprocess with a chosen environment, its output captured.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tidepool::test_support {

struct ProcessOutput {
  int exit_code = -1;  // 128 + the signal when a signal ended it
  std::string out;
  std::string err;
};

// This process's environment without the variables whose "NAME=" starts with one of `drop`
// (e.g. "TIDEPOOL_" or "LD_PRELOAD="), and without those `extra` sets; then `extra`.
std::vector<std::string> child_environment(const std::vector<std::string_view>& drop,
                                           const std::vector<std::string>& extra);

// Runs argv (argv[0] a path) with exactly `env`, its stdout and stderr written to files in
// `scratch` and returned; waits for it. Throws when it cannot be started.
ProcessOutput run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::filesystem::path& scratch);

// The words quoted for the shell, separated by spaces.
std::string shell_words(const std::vector<std::string>& words);

}  // namespace tidepool::test_support
