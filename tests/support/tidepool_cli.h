// Test support: running the build's `tidepool` as a user would (no TIDEPOOL_ settings or
// LD_PRELOAD from the test's own environment), and checking how it refuses bad input.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "tests/support/subprocess.h"

namespace tidepool::test_support {

// The build's `tidepool`.
std::string tidepool_binary();

// The environment `tidepool` is run with: this process's, without TIDEPOOL_ settings or LD_PRELOAD.
std::vector<std::string> tidepool_environment();

// Runs `tidepool ARGS...`, its output captured through files in `scratch`.
ProcessOutput run_tidepool(const std::vector<std::string>& args, const std::filesystem::path& scratch);

// A command line that must be refused.
struct Refusal {
  std::vector<std::string> args;
  int exit_code;        // 2: a usage error; 1: the input itself; run: 127 and 126 as a shell
  std::string message;  // what its error line must say
};

// Runs each case and expects (gtest) its exit status, one line on stderr that starts with
// "tidepool: " and holds the message, and nothing on stdout.
void expect_refusals(std::span<const Refusal> cases, const std::filesystem::path& scratch);

}  // namespace tidepool::test_support
