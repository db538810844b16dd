// Subprocesses and trace reading for the optimizer's tests.
#include "tests/optimize/optimized_run.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "analyzer/trace/reader.h"

extern char** environ;

namespace optimize_test {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

trace::RecordTag tag_of(const trace::Record& record) {
  return std::visit([](const auto& r) { return std::decay_t<decltype(r)>::tag; }, record);
}

}  // namespace

std::string example(const std::string& name) {
  return (fs::path(TIDEPOOL_EXAMPLES_DIR) / name).string();
}
std::string steps_program() {
  return TIDEPOOL_STEPS_PROGRAM;
}

std::string ProgramRun::checksum() const {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("checksum: ")) return line.substr(10);
  }
  return "";
}

Sandbox::Sandbox() {
  std::string pattern = (fs::temp_directory_path() / "tidepool-optimize-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  fs::create_directories(dir_ / "traces");
  std::ofstream(dir_ / "lsan.supp") << "leak:_dl_map_object_deps\n";
}

Sandbox::~Sandbox() {
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

ProgramRun Sandbox::plain(const std::string& program, const std::vector<std::string>& args) const {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  return spawn(argv, {"LD_LIBRARY_PATH=" TIDEPOOL_SIMCUDA_DIR});
}

ProgramRun Sandbox::tidepool(const std::vector<std::string>& flags, const std::string& program,
                             const std::vector<std::string>& args,
                             const std::vector<std::string>& env) const {
  std::error_code ignored;
  fs::remove_all(dir_ / "traces", ignored);  // the newest trace is then this run's
  fs::create_directories(dir_ / "traces");
  std::vector<std::string> argv{TIDEPOOL_CLI, "run", "--sim", "-o", (dir_ / "traces").string(),
                                "-f"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back("--");
  argv.push_back(program);
  argv.insert(argv.end(), args.begin(), args.end());
  return spawn(argv, env);
}

ProgramRun Sandbox::spawn(const std::vector<std::string>& argv,
                          const std::vector<std::string>& env) const {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (entry.starts_with("TIDEPOOL_") || entry.starts_with("SIMCUDA_") ||
        entry.starts_with("LD_PRELOAD=") || entry.starts_with("LD_LIBRARY_PATH=") ||
        entry.starts_with("XDG_CACHE_HOME=")) {
      continue;
    }
    env_strings.push_back(entry);
  }
  env_strings.push_back("XDG_CACHE_HOME=" + (dir_ / "cache").string());  // never the user's cache
  // Under AddressSanitizer, LeakSanitizer's exit-time scan of the dynamic TLS that simcuda (when
  // dlopen'ed) left in its exited stream threads crashes the tracer (a sanitizer runtime bug, see
  // tests/examples): skip scanning TLS, and with it the loader's record of that dlopen, which only
  // TLS reaches. No effect without sanitizers.
  env_strings.push_back("LSAN_OPTIONS=use_tls=0:suppressions=" + (dir_ / "lsan.supp").string());
  env_strings.insert(env_strings.end(), env.begin(), env.end());
  std::vector<std::string> args = argv;
  std::vector<char*> argv_pointers, env_pointers;
  for (std::string& a : args) argv_pointers.push_back(a.data());
  argv_pointers.push_back(nullptr);
  for (std::string& e : env_strings) env_pointers.push_back(e.data());
  env_pointers.push_back(nullptr);
  const fs::path out = dir_ / "stdout", err = dir_ / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv_pointers[0], &actions, nullptr, argv_pointers.data(),
                                  env_pointers.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw std::runtime_error("cannot run " + argv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  ProgramRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = read_file(out);
  run.err = read_file(err);
  return run;
}

bool Sandbox::has_trace() const {
  for (const auto& entry : fs::directory_iterator(dir_ / "traces")) {
    if (entry.path().extension() == ".tpt") return true;
  }
  return false;
}

int Sandbox::Decisions::count(trace::RecordTag tag) const {
  const auto it = counts.find(tag);
  return it == counts.end() ? 0 : it->second;
}

Sandbox::Decisions Sandbox::newest_decisions() const {
  std::optional<fs::path> newest;
  fs::file_time_type newest_time{};
  for (const auto& entry : fs::directory_iterator(dir_ / "traces")) {
    if (entry.path().extension() != ".tpt") continue;
    if (!newest || entry.last_write_time() > newest_time) {
      newest = entry.path();
      newest_time = entry.last_write_time();
    }
  }
  if (!newest) throw std::runtime_error("no trace was written");
  const trace::Trace t = trace::read_trace(*newest);
  Decisions d;
  for (const trace::Event& e : t.events) {
    ++d.counts[tag_of(e.record)];
    if (const auto* p = std::get_if<trace::PlanInstalled>(&e.record))
      d.installed.emplace_back(t.string(p->fingerprint_id));
  }
  return d;
}

}  // namespace optimize_test
