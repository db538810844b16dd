// `tidepool run` as a wrapper: the program's exit code passed through (128 + the signal when it is
// killed); for a program that cannot be started, a shell's: 127 when there is none, 126 when it
// cannot be run (each refusal one line, and nothing runs); and a SIGTERM sent to tidepool passed
// on to the program, once; and TIDEPOOL_SELF_TIMING's lines.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/tidepool_cli.h"

namespace tidepool::cli {
namespace {

using test_support::ProcessOutput;
using test_support::Refusal;
using test_support::TempDir;

class RunCommand : public ::testing::Test {
 protected:
  ProcessOutput tidepool(const std::vector<std::string>& args) {
    return test_support::run_tidepool(args, dir_.path());
  }
  std::string path(const std::string& name) const { return (dir_.path() / name).string(); }
  std::string write_file(const std::string& name, const std::string& text, mode_t mode) {
    const std::string file = path(name);
    std::ofstream(file) << text;
    chmod(file.c_str(), mode);
    return file;
  }
  TempDir dir_{"tidepool-run-cli"};
};

TEST_F(RunCommand, ExitsWithTheProgramsExitCode) {
  const std::string out = path("traces");
  ProcessOutput run = tidepool({"run", "--sim", "-o", out, "--", "sh", "-c", "exit 7"});
  EXPECT_EQ(run.exit_code, 7) << run.err;
  run = tidepool({"run", "--sim", "-o", out, "--", "sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(run.exit_code, 128 + 15) << run.err;
}

// A program that logs each SIGTERM it gets and ends with 3 on it, and whose helper, 0.3 s in,
// sends SIGTERM: to tidepool from another session (as a scheduler or a container runtime would),
// to tidepool from its own process group (a script's `kill $!`), or to the whole group (as
// `timeout` does: the program has it already). tidepool runs in a session of its own (setsid), so
// that the last reaches no one else. The program hears of it once each time, and tidepool exits
// with its code; before, tidepool died of the first two and the program ran on, orphaned.
TEST_F(RunCommand, ASigtermForTidepoolReachesTheProgramOnce) {
  const std::string program = write_file("trapper.sh", R"(#!/bin/sh
trap 'echo TERM >> "$1"; exit 3' TERM
case $2 in
  outside) (sleep 0.3; setsid sh -c "kill -TERM $PPID") & ;;
  tidepool) (sleep 0.3; kill -TERM $PPID) & ;;
  group) (sleep 0.3; kill -TERM 0) & ;;
esac
i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
echo "not signalled" >> "$1"
)",
                                         0755);
  for (const std::string mode : {"outside", "tidepool", "group"}) {
    const std::string log = path(mode + ".log");
    const ProcessOutput run =
        test_support::run_process({"/usr/bin/setsid", "-w", test_support::tidepool_binary(), "run",
                                   "--sim", "-o", path("traces"), "--", program, log, mode},
                                  test_support::tidepool_environment(), dir_.path());
    EXPECT_EQ(run.exit_code, 3) << mode << ": " << run.err;
    EXPECT_EQ(test_support::read_file(log), "TERM\n") << mode;
  }
}

// TIDEPOOL_SELF_TIMING=1: one line per hooked symbol the program called, with its calls, and none
// without it. procaddress reaches the driver through cuGetProcAddress, so the wrappers handed out
// that way are timed too; its launches, allocations and frees are simcuda's count.
TEST_F(RunCommand, SelfTimingCountsEachHooksCalls) {
  const std::string program = std::string(TIDEPOOL_BINARY_DIR) + "/examples/procaddress";
  const std::string stats = path("stats.json");
  std::vector<std::string> env = test_support::tidepool_environment();
  env.push_back("SIMCUDA_STATS=" + stats);
  const std::vector<std::string> argv = {test_support::tidepool_binary(),
                                         "run",
                                         "--sim",
                                         "-o",
                                         path("traces"),
                                         "-f",
                                         "--",
                                         program,
                                         "--iterations",
                                         "4",
                                         "--elements",
                                         "4096"};
  const ProcessOutput plain = test_support::run_process(argv, env, dir_.path());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("self-timing"), std::string::npos) << plain.err;

  env.push_back("TIDEPOOL_SELF_TIMING=1");
  const ProcessOutput timed = test_support::run_process(argv, env, dir_.path());
  ASSERT_EQ(timed.exit_code, 0) << timed.err;
  std::map<std::string, uint64_t> calls;
  std::istringstream lines(timed.err);
  for (std::string line; std::getline(lines, line);) {
    char symbol[128] = {};
    unsigned long long count = 0;
    double own_ns = -1, driver_ns = -1;
    if (std::sscanf(line.c_str(),
                    "tidepool: self-timing: %127[^:]: %llu calls, %lf ns in tidepool and %lf ns in "
                    "the driver per call",
                    symbol, &count, &own_ns, &driver_ns) != 4)
      continue;
    EXPECT_TRUE(calls.emplace(symbol, count).second) << "twice: " << symbol;
    EXPECT_GT(count, 0u) << line;
    EXPECT_GE(own_ns, 0) << line;
    EXPECT_GE(driver_ns, 0) << line;
  }
  const auto counted = nlohmann::json::parse(test_support::read_file(stats));
  EXPECT_EQ(calls["cuLaunchKernel_ptsz"], counted.at("kernel_launches").get<uint64_t>())
      << timed.err;
  EXPECT_EQ(calls["cuMemAlloc_v2"], counted.at("allocations").get<uint64_t>()) << timed.err;
  EXPECT_EQ(calls["cuMemFree_v2"], counted.at("frees").get<uint64_t>()) << timed.err;
  EXPECT_GT(calls["cuGetProcAddress_v2"], 0u) << timed.err;
}

TEST_F(RunCommand, AProgramThatCannotStartIsRefusedAsAShellWould) {
  const std::string out = path("traces");
  const std::string not_executable = write_file("data.sh", "echo ran\n", 0644);
  const std::string no_interpreter = write_file("script", "#!/nonexistent/sh\necho ran\n", 0755);
  const std::vector<Refusal> refusals = {
      {{"run", "--sim", "-o", out, "--", path("missing")},
       127,
       "no such program: " + path("missing")},
      {{"run", "--sim", "-o", out, "--", "tidepool-no-such-command"},
       127,
       "no such program: tidepool-no-such-command"},
      {{"run", "--sim", "-o", out, "--", not_executable},
       126,
       "cannot run " + not_executable + ": Permission denied"},
      {{"run", "--sim", "-o", out, "--", dir_.path().string()}, 126, ": Is a directory"},
      {{"run", "--sim", "-o", out, "--", no_interpreter},
       127,
       "cannot run " + no_interpreter + ": No such file or directory"},
      {{"run", "--sim", "-o", out}, 2, "no program given"},
  };
  test_support::expect_refusals(refusals, dir_.path());
}

}  // namespace
}  // namespace tidepool::cli
