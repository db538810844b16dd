// Runs tests/runtime/exit_recording_program.cpp for the tests that read what it recorded, and
// finds the trace it left.
#pragma once

#include <filesystem>

#include "tests/support/subprocess.h"

namespace tidepool::runtime {

// The program, recording into `output_dir`; its output is kept in `scratch`.
inline test_support::ProcessOutput run_exit_recording_program(
    const std::filesystem::path& output_dir, const std::filesystem::path& scratch) {
  const auto env = test_support::child_environment(
      {"TIDEPOOL_"}, {"TIDEPOOL_OUTPUT_DIR=" + output_dir.string(), "TIDEPOOL_FORCE=1"});
  return test_support::run_process({TIDEPOOL_EXIT_RECORDING_PROGRAM}, env, scratch);
}

// The trace file in `dir` (empty when there is none).
inline std::filesystem::path trace_in(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".tpt") return entry.path();
  return {};
}

}  // namespace tidepool::runtime
