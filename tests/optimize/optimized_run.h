// Runs a program on simcuda for the optimizer's tests, directly or under `tidepool run --sim`, in
// a private temporary folder (traces, the plan cache), and reads back what it printed and the
// runtime decisions its trace holds.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "analyzer/trace/format.h"
#include "tests/support/files.h"

namespace optimize_test {

namespace trace = tidepool::trace;

struct ProgramRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::string checksum() const;  // the "checksum: ..." line's value, "" when none
};

class Sandbox {
 public:
  Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

  // The program alone on simcuda (`env`: more variables, such as SIMCUDA_* settings).
  ProgramRun plain(const std::string& program, const std::vector<std::string>& args,
                   const std::vector<std::string>& env = {}) const;
  // `tidepool run --sim -o <dir>/traces -f <flags> -- program args`.
  ProgramRun tidepool(const std::vector<std::string>& flags, const std::string& program,
                      const std::vector<std::string>& args,
                      const std::vector<std::string>& env = {}) const;

  // How many records of each runtime-decision kind the newest trace holds, and the fingerprints
  // of its PlanInstalled records in order.
  struct Decisions {
    std::map<trace::RecordTag, int> counts;
    std::vector<std::string> installed;
    int hits_after_alloc = 0;  // PoolHit records next (by sequence) to their allocation's Alloc
    int count(trace::RecordTag tag) const;
  };
  Decisions newest_decisions() const;
  bool has_trace() const;

 private:
  ProgramRun spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env) const;
  tidepool::test_support::TempDir temp_;
  std::filesystem::path dir_;
};

std::string example(const std::string& name);
std::string steps_program();
std::string random_program();

}  // namespace optimize_test
