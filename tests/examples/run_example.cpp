// Subprocess runner for the example tests (see run_example.h).
#include "tests/examples/run_example.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace examples_test {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A private temporary folder, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tidepool-examples-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string_view variable_name(std::string_view entry) {
  return entry.substr(0, entry.find('='));
}

// The test's environment, with simcuda first on the library path; `extra` entries replace
// variables of the same name.
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string_view entry = *e;
    const std::string_view name = variable_name(entry);
    const bool replaced = std::any_of(
        extra.begin(), extra.end(), [&](const std::string& x) { return variable_name(x) == name; });
    if (replaced || name == "LD_LIBRARY_PATH" || name == "SIMCUDA_STATS") continue;
    env.emplace_back(entry);
  }
  std::string library_path = "LD_LIBRARY_PATH=" TIDEPOOL_SIMCUDA_DIR;
  if (const char* inherited = std::getenv("LD_LIBRARY_PATH")) {
    library_path += std::string(":") + inherited;
  }
  env.push_back(library_path);
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

std::string example_path(std::string_view name) {
  return (fs::path(TIDEPOOL_EXAMPLES_DIR) / name).string();
}

std::string ExampleRun::out_value(std::string_view prefix) const {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(prefix)) return line.substr(prefix.size());
  }
  return "";
}

nlohmann::json ExampleRun::bookkeeping() const {
  constexpr std::string_view kPrefix = "bookkeeping: ";
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(kPrefix)) return nlohmann::json::parse(line.substr(kPrefix.size()));
  }
  return nullptr;
}

ExampleRun run_example(std::string_view name, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env) {
  return run_program(example_path(name), args, extra_env);
}

ExampleRun run_program(const std::string& path, const std::vector<std::string>& args,
                       const std::vector<std::string>& extra_env) {
  TempDir dir;
  const fs::path out_path = dir.path() / "stdout", err_path = dir.path() / "stderr";
  const fs::path stats_path = dir.path() / "stats.json";

  std::vector<std::string> argv_strings{path};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<std::string> env_strings = child_environment(extra_env);
  env_strings.push_back("SIMCUDA_STATS=" + stats_path.string());
  std::vector<char*> argv = pointers(argv_strings), envp = pointers(env_strings);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawn_error = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) throw std::runtime_error("cannot start " + argv_strings[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }

  ExampleRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out_path);
  run.err = read_file(err_path);
  if (fs::exists(stats_path)) run.stats = nlohmann::json::parse(read_file(stats_path));
  return run;
}

}  // namespace examples_test
