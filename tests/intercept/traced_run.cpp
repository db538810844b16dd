// Spawns traced programs for the interception tests.
#include "traced_run.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "analyzer/trace/reader.h"

namespace tidepool::testing {
namespace {

std::string make_output_dir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "tidepool-intercept-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "mkdtemp failed";
  return pattern;
}

// Reads stdout until the line appears (or the pipe closes).
bool wait_for_line(int fd, const std::string& line) {
  std::string seen;
  char c;
  while (read(fd, &c, 1) == 1) {
    if (c != '\n') {
      seen += c;
      continue;
    }
    if (seen == line) return true;
    seen.clear();
  }
  return false;
}

}  // namespace

TracedRun run_traced(const RunSpec& spec) {
  TracedRun run;
  run.output_dir = make_output_dir();
  int out_pipe[2];
  if (pipe(out_pipe) != 0) ADD_FAILURE() << "pipe failed";
  const pid_t child = fork();
  if (child == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    close(out_pipe[0]);
    close(out_pipe[1]);
    if (!spec.stderr_path.empty()) {
      const int err = open(spec.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err < 0) _exit(126);
      dup2(err, STDERR_FILENO);
      close(err);
    }
    setenv("LD_PRELOAD", spec.preload.c_str(), 1);
    setenv("LD_LIBRARY_PATH", TIDEPOOL_SIMCUDA_LIBRARY_DIR, 1);
    setenv("TIDEPOOL_OUTPUT_DIR", run.output_dir.c_str(), 1);
    for (const auto& [name, value] : spec.env) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  if (!spec.kill_after_line.empty()) {
    EXPECT_TRUE(wait_for_line(out_pipe[0], spec.kill_after_line));
    std::this_thread::sleep_for(std::chrono::milliseconds(spec.kill_after_ms));
    kill(child, SIGKILL);
  } else {
    char buffer[256];
    while (read(out_pipe[0], buffer, sizeof buffer) > 0) {
    }
  }
  close(out_pipe[0]);
  int status = 0;
  waitpid(child, &status, 0);
  run.exit_status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  for (const auto& entry : std::filesystem::directory_iterator(run.output_dir)) {
    if (entry.path().extension() == ".tpt") run.traces.push_back(entry.path().string());
  }
  return run;
}

trace::Trace only_trace(const TracedRun& run) {
  EXPECT_EQ(run.traces.size(), 1u) << "in " << run.output_dir;
  if (run.traces.size() != 1) return {};
  trace::Trace t = trace::read_trace(run.traces.front());
  std::filesystem::remove_all(run.output_dir);
  return t;
}

}  // namespace tidepool::testing
