// Subprocesses and trace reading for the optimizer's tests.
#include "tests/optimize/optimized_run.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <variant>

#include "analyzer/trace/reader.h"
#include "tests/support/subprocess.h"

namespace optimize_test {
namespace {

namespace fs = std::filesystem;

}  // namespace

std::string example(const std::string& name) {
  return (fs::path(TIDEPOOL_EXAMPLES_DIR) / name).string();
}
std::string steps_program() {
  return TIDEPOOL_STEPS_PROGRAM;
}

std::string random_program() {
  return TIDEPOOL_RANDOM_PROGRAM;
}

std::string ProgramRun::checksum() const {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("checksum: ")) return line.substr(10);
  }
  return "";
}

Sandbox::Sandbox() : temp_("tidepool-optimize"), dir_(temp_.path()) {
  fs::create_directories(dir_ / "traces");
  std::ofstream(dir_ / "lsan.supp") << "leak:_dl_map_object_deps\n";
}

ProgramRun Sandbox::plain(const std::string& program, const std::vector<std::string>& args,
                          const std::vector<std::string>& env) const {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<std::string> variables = {"LD_LIBRARY_PATH=" TIDEPOOL_SIMCUDA_DIR};
  variables.insert(variables.end(), env.begin(), env.end());
  return spawn(argv, variables);
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
  std::vector<std::string> extra = {
      "XDG_CACHE_HOME=" + (dir_ / "cache").string(),  // never the user's cache
      // Under AddressSanitizer, LeakSanitizer's exit-time scan of the dynamic TLS that simcuda
      // (when dlopen'ed) left in its exited stream threads crashes the tracer (a sanitizer runtime
      // bug, see tests/examples): skip scanning TLS, and with it the loader's record of that
      // dlopen, which only TLS reaches. No effect without sanitizers.
      "LSAN_OPTIONS=use_tls=0:suppressions=" + (dir_ / "lsan.supp").string()};
  extra.insert(extra.end(), env.begin(), env.end());
  const tidepool::test_support::ProcessOutput output = tidepool::test_support::run_process(
      argv,
      tidepool::test_support::child_environment({"TIDEPOOL_", "SIMCUDA_", "LD_PRELOAD=", "LD_LIBRARY_PATH="}, extra),
      dir_);
  return {output.exit_code, output.out, output.err};
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
  for (size_t i = 0; i < t.events.size(); ++i) {
    const trace::Event& e = t.events[i];
    ++d.counts[trace::tag_of(e.record)];
    if (const auto* p = std::get_if<trace::PlanInstalled>(&e.record))
      d.installed.emplace_back(t.string(p->fingerprint_id));
    if (const auto* hit = std::get_if<trace::PoolHit>(&e.record); hit != nullptr && i > 0) {
      const trace::Event& before = t.events[i - 1];
      const auto* alloc = std::get_if<trace::Alloc>(&before.record);
      if (alloc != nullptr && alloc->alloc_id == hit->alloc_id && before.seq + 1 == e.seq) ++d.hits_after_alloc;
    }
  }
  return d;
}

}  // namespace optimize_test
