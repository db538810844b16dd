// Runs a program with libtidepool.so preloaded on simcuda, in a fresh output directory, and reads
// back the one trace it leaves.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzer/trace/trace.h"

namespace tidepool::testing {

struct TracedRun {
  int exit_status = -1;  // the program's exit code, or 128 + signal
  std::string output_dir;
  std::vector<std::string> traces;  // paths of the traces left in output_dir
};

struct RunSpec {
  std::vector<std::string> argv;
  std::string preload = TIDEPOOL_PRELOAD;  // LD_PRELOAD (space-separated list)
  std::vector<std::pair<std::string, std::string>> env;
  // When set: wait for this line on the program's stdout, then SIGKILL it after kill_after_ms.
  std::string kill_after_line;
  int kill_after_ms = 0;
  // When set: the program's stderr goes to this file.
  std::string stderr_path;
};

TracedRun run_traced(const RunSpec& spec);

// The only trace of a run (fails the test when there is not exactly one).
trace::Trace only_trace(const TracedRun& run);

// The events of one record type, in order.
template <class Record>
std::vector<Record> records_of(const trace::Trace& trace) {
  std::vector<Record> out;
  for (const trace::Event& e : trace.events) {
    if (const auto* r = std::get_if<Record>(&e.record)) out.push_back(*r);
  }
  return out;
}

}  // namespace tidepool::testing
