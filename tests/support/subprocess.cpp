// Subprocesses for the tests (see subprocess.h).
#include "tests/support/subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "tests/support/files.h"

extern char** environ;

namespace tidepool::test_support {
namespace {

std::string_view variable_name(std::string_view entry) { return entry.substr(0, entry.find('=')); }

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

}  // namespace

std::vector<std::string> child_environment(const std::vector<std::string_view>& drop,
                                           const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry = *e;
    const bool dropped = std::ranges::any_of(drop, [&](std::string_view p) { return entry.starts_with(p); });
    const bool replaced =
        std::ranges::any_of(extra, [&](const std::string& x) { return variable_name(x) == variable_name(entry); });
    if (!dropped && !replaced) env.emplace_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

ProcessOutput run_process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                          const std::filesystem::path& scratch) {
  std::vector<std::string> argv_strings = argv, env_strings = env;
  std::vector<char*> argv_pointers = pointers(argv_strings), env_pointers = pointers(env_strings);
  const std::filesystem::path out = scratch / "stdout", err = scratch / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawn_error =
      posix_spawn(&pid, argv_pointers[0], &actions, nullptr, argv_pointers.data(), env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) throw std::runtime_error("cannot start " + argv.front());
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), read_file(out), read_file(err)};
}

std::string shell_words(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ' ';
    out += '\'';
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

}  // namespace tidepool::test_support
