// `tidepool run [--sim] [-o DIR] [-f] [--framework auto|torch|tf|jax|none] [--no-stacks] [--cupti]
// [--optimize[=pool,swap] [--budget BYTES | --max-slowdown PCT] [--plan PLAN.json] [--plan-cache DIR]
// [--pinned-limit BYTES] [--link L]] -- CMD...`:
// runs a program with libtidepool.so preloaded (its children inherit it), exits with the
// program's exit code, and prints a short summary of the traces it left and the command that
// shows the full report.
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/report/trace_summary.h"
#include "analyzer/report/units.h"
#include "commands.h"
#include "errors.h"
#include "install_paths.h"
#include "run_optimize_flags.h"
#include "signal_relay.h"

namespace tidepool::cli {
namespace {

namespace fs = std::filesystem;

struct RunOptions {
  bool sim = false;
  std::string output_dir = ".";
  bool force = false;
  std::string framework = "auto";
  bool no_stacks = false;
  bool cupti = false;
  OptimizeFlags optimize;
  std::vector<std::string> command;
};

// Why execvp could not start `path` (0: it could): ENOENT, EISDIR or EACCES.
int unrunnable(const fs::path& path) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return ENOENT;
  if (fs::is_directory(status)) return EISDIR;
  return access(path.c_str(), X_OK) == 0 ? 0 : EACCES;
}

// A shell's exit code for a program it could not start: 127 when there is none (ENOENT), 126 when
// there is one that cannot be run.
int shell_exit_code(int error) {
  return error == ENOENT ? 127 : 126;
}

// A program require_program did not find, or found and cannot run.
[[noreturn]] void refuse_program(const std::string& program, int error) {
  if (error == ENOENT) throw ExitCodeError("no such program: " + program, shell_exit_code(error));
  throw ExitCodeError("cannot run " + program + ": " + std::strerror(error),
                      shell_exit_code(error));
}

// The program as execvp would find it (a name without a slash is looked up in PATH).
void require_program(const std::string& program) {
  if (program.find('/') != std::string::npos) {
    if (const int error = unrunnable(program)) refuse_program(program, error);
    return;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  int first_error = ENOENT;  // a match that cannot be run outranks none
  for (size_t start = 0; start <= dirs.size();) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = dirs.substr(start, end - start);
    const int error = unrunnable(fs::path(dir.empty() ? "." : dir) / program);
    if (error == 0) return;
    if (first_error == ENOENT) first_error = error;
    start = end + 1;
  }
  refuse_program(program, first_error);
}

// The framework named on the command line or imported by a Python script given to it.
std::string guess_framework(const std::vector<std::string>& command) {
  auto mentions = [](const std::string& text, std::initializer_list<const char*> words) {
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return text.find(w) != std::string::npos; });
  };
  for (const std::string& arg : command) {
    const std::string name = fs::path(arg).filename().string();
    if (mentions(name, {"torch"})) return "torch";
    if (mentions(name, {"tensorflow"})) return "tf";
    if (name == "jax" || mentions(name, {"jax."})) return "jax";
    if (arg.size() > 3 && arg.ends_with(".py")) {
      std::ifstream in(arg);
      std::string head(64 * 1024, '\0');
      in.read(head.data(), static_cast<std::streamsize>(head.size()));
      head.resize(static_cast<size_t>(in.gcount()));
      if (mentions(head, {"import torch", "from torch"})) return "torch";
      if (mentions(head, {"import tensorflow", "from tensorflow"})) return "tf";
      if (mentions(head, {"import jax", "from jax"})) return "jax";
    }
  }
  return "none";
}

// Sets the documented variables that make a framework hand each tensor to the driver.
void configure_framework(std::string framework, const std::vector<std::string>& command) {
  if (framework == "auto") framework = guess_framework(command);
  static const std::map<std::string, std::pair<const char*, const char*>> kSettings = {
      {"torch", {"PYTORCH_CUDA_ALLOC_CONF", "backend:cudaMallocAsync"}},
      {"tf", {"TF_GPU_ALLOCATOR", "cuda_malloc_async"}},
      {"jax", {"XLA_PYTHON_CLIENT_ALLOCATOR", "platform"}},
  };
  const auto it = kSettings.find(framework);
  if (it == kSettings.end()) return;
  const auto [name, value] = it->second;
  if (const char* existing = std::getenv(name)) {
    std::fprintf(stderr, "tidepool: --framework %s: keeping %s=%s as set\n", framework.c_str(), name, existing);
    return;
  }
  setenv(name, value, 1);
  std::fprintf(stderr, "tidepool: --framework %s: set %s=%s\n", framework.c_str(), name, value);
}

void prepend_path_variable(const char* name, const std::string& entry, char separator) {
  const char* old = std::getenv(name);
  const std::string value = old != nullptr && *old != '\0' ? entry + separator + old : entry;
  setenv(name, value.c_str(), 1);
}

void configure_environment(const RunOptions& options) {
  const fs::path preload = require_preload_library();
  if (options.sim) {
    prepend_path_variable("LD_LIBRARY_PATH", require_simcuda_dir().string(), ':');
  } else if (void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
    dlclose(driver);
  } else {
    throw std::runtime_error("no CUDA driver found (libcuda.so.1); use --sim to run on simcuda");
  }
  prepend_path_variable("LD_PRELOAD", preload.string(), ':');
  setenv("NVTX_INJECTION64_PATH", preload.c_str(), 1);
  setenv("TIDEPOOL_OUTPUT_DIR", fs::absolute(options.output_dir).c_str(), 1);
  setenv("TIDEPOOL_FORCE", options.force ? "1" : "0", 1);
  setenv("TIDEPOOL_STACKS", options.no_stacks ? "0" : "1", 1);
  setenv("TIDEPOOL_CUPTI", options.cupti ? "1" : "0", 1);
  configure_framework(options.framework, options.command);
}

std::map<fs::path, fs::file_time_type> traces_in(const fs::path& dir) {
  std::map<fs::path, fs::file_time_type> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".tpt") found[entry.path()] = entry.last_write_time(error);
  }
  return found;
}

// Runs the program; returns its exit status as a shell would (128 + signal when killed). The
// signals meant for it are passed on while it runs (signal_relay.h).
int run_program(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  int report_pipe[2];
  if (pipe2(report_pipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  const SignalRelay relay;
  const pid_t child = fork();
  if (child < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    close(report_pipe[0]);
    relay.restore_in_child();
    execvp(argv[0], argv.data());
    const int error = errno;
    (void)!write(report_pipe[1], &error, sizeof error);
    _exit(127);
  }
  close(report_pipe[1]);
  int exec_error = 0;
  const bool exec_failed = read(report_pipe[0], &exec_error, sizeof exec_error) == sizeof exec_error;
  close(report_pipe[0]);
  const int status = relay.wait_for(child);
  // Found, but exec failed (a script whose interpreter is missing, say): 127 or 126 as from a
  // shell.
  if (exec_failed) {
    throw ExitCodeError("cannot run " + command.front() + ": " + std::strerror(exec_error),
                        shell_exit_code(exec_error));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

void summarize(const std::vector<fs::path>& traces) {
  if (traces.empty()) {
    std::fprintf(stderr,
                 "tidepool: no trace was written (the program made no CUDA driver call, or a line "
                 "above says why)\n");
    return;
  }
  std::string command = "tidepool report";
  for (const fs::path& path : traces) {
    command += " " + path.string();
    try {
      const report::TraceSummary r = report::summarize_trace(path);
      std::fprintf(stderr, "tidepool: %s (pid %u%s): peak device memory %s, %llu allocations, %llu frees, %llu kernel launches, leaked %s%s\n",
                   path.filename().c_str(), r.pid, r.rank >= 0 ? (", rank " + std::to_string(r.rank)).c_str() : "",
                   report::human_bytes(r.peak_requested_bytes).c_str(),
                   static_cast<unsigned long long>(r.allocations), static_cast<unsigned long long>(r.frees),
                   static_cast<unsigned long long>(r.kernel_launches), report::human_bytes(r.leaked_bytes).c_str(),
                   r.truncated ? " (truncated trace)" : "");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tidepool: %s\n", e.what());
    }
  }
  std::fprintf(stderr, "tidepool: full report: %s\n", command.c_str());
}

void run(const RunOptions& options) {
  if (options.command.empty()) throw UsageError("run: no program given (tidepool run [options] -- PROGRAM [ARGS...])");
  require_program(options.command.front());
  export_optimize_flags(options.optimize);
  std::error_code error;
  fs::create_directories(options.output_dir, error);
  if (!fs::is_directory(options.output_dir)) throw std::runtime_error("cannot create the output directory " + options.output_dir);
  configure_environment(options);
  const auto before = traces_in(options.output_dir);
  const int status = run_program(options.command);
  std::vector<fs::path> written;
  for (const auto& [path, time] : traces_in(options.output_dir)) {
    const auto old = before.find(path);
    if (old == before.end() || old->second != time) written.push_back(path);
  }
  summarize(written);
  set_exit_code(status);
}

}  // namespace

void add_run(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Run a CUDA program under tidepool and record a trace of its memory");
  cmd->add_flag("--sim", options->sim, "Run on simcuda, the simulated driver, instead of the real one");
  cmd->add_option("-o,--output-dir", options->output_dir, "Directory for the traces (one per process)");
  cmd->add_flag("-f,--force", options->force, "Overwrite existing traces of the same name");
  cmd->add_option("--framework", options->framework, "Make a framework allocate through the driver")
      ->check(CLI::IsMember({"auto", "torch", "tf", "jax", "none"}));
  cmd->add_flag("--no-stacks", options->no_stacks, "Do not record call stacks at allocations");
  cmd->add_flag("--cupti", options->cupti,
                "Device times from CUPTI activity records instead of events (real GPUs; takes CUPTI's one subscriber)");
  add_optimize_flags(*cmd, options->optimize);
  // Everything from the program on (after `--`, or from the first word that is not ours) is the
  // program's own command line.
  cmd->add_option("program", options->command, "The program to run and its arguments, after --");
  cmd->callback([options] { run(*options); });
}

}  // namespace tidepool::cli
