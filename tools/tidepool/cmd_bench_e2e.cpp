// `tidepool bench e2e [--examples a,b,..] [--modes off,pool,swap,pool+swap] [--seeds N]
// [--sizes tiny,small,default] [--max-slowdown PCT] [--memory-fraction F] [--examples-dir DIR]
// [--json]`: runs the examples on simcuda without tidepool and under `tidepool run --sim
// --optimize=MODE` (bench_e2e_matrix.h), and prints simcuda's peak and simulated time of each
// run, their ratios to the run without tidepool, and whether the checksum matched it
// (bench_e2e_output.h; docs/optimize.md).
#include <CLI/CLI.hpp>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_e2e_matrix.h"
#include "bench_e2e_output.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

namespace fs = std::filesystem;

struct E2eOptions {
  std::string examples = "train_mlp,multistream,async_alloc,procaddress,dlopen_driver";
  std::string modes = "off,pool,swap,pool+swap";
  int seeds = 2;
  std::string sizes = "small,default";
  E2eSettings settings;
  std::string examples_dir;
  bool json = false;
};

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

// `pool+swap` stands for --optimize=pool,swap (a comma separates the modes).
std::vector<std::string> parse_modes(const std::string& list) {
  std::vector<std::string> modes;
  for (const std::string& m : split(list)) {
    if (m != "off" && m != "pool" && m != "swap" && m != "pool+swap") {
      throw UsageError("bench e2e: unknown mode '" + m + "' (off, pool, swap, pool+swap)");
    }
    modes.push_back(m == "pool+swap" ? "pool,swap" : m);
  }
  if (modes.empty()) throw UsageError("bench e2e: --modes is empty");
  return modes;
}

std::vector<std::string> parse_sizes(const std::string& list) {
  const std::vector<std::string> sizes = split(list);
  for (const std::string& s : sizes) {
    if (s != "tiny" && s != "small" && s != "default") {
      throw UsageError("bench e2e: unknown size '" + s + "' (tiny, small, default)");
    }
  }
  if (sizes.empty()) throw UsageError("bench e2e: --sizes is empty");
  return sizes;
}

std::vector<const E2eExample*> parse_examples(const std::string& list) {
  std::vector<const E2eExample*> chosen;
  for (const std::string& name : split(list)) {
    const E2eExample* found = nullptr;
    for (const E2eExample& e : e2e_examples()) found = e.name == name ? &e : found;
    if (found == nullptr) {
      throw UsageError("bench e2e: unknown example '" + name +
                       "' (train_mlp, multistream, async_alloc, procaddress, dlopen_driver)");
    }
    chosen.push_back(found);
  }
  if (chosen.empty()) throw UsageError("bench e2e: --examples is empty");
  return chosen;
}

// The build tree's <prefix>/examples or an install's <prefix>/libexec/tidepool/examples, <prefix>
// being the parent of tidepool's bin/.
fs::path examples_dir(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code error;
  const fs::path prefix = fs::read_symlink("/proc/self/exe", error).parent_path().parent_path();
  for (const fs::path& dir : {prefix / "examples", prefix / "libexec" / "tidepool" / "examples"}) {
    if (fs::is_directory(dir)) return dir;
  }
  throw std::runtime_error("cannot find the examples (looked in " + (prefix / "examples").string() + " and " +
                           (prefix / "libexec/tidepool/examples").string() + "); give --examples-dir");
}

// A scratch directory for the runs' traces, statistics, outputs and plan caches, removed at the end.
class Scratch {
 public:
  Scratch() : path_(fs::temp_directory_path() / ("tidepool-bench-e2e-" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code error;
    fs::remove_all(path_, error);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void bench_e2e(const E2eOptions& options) {
  const std::vector<std::string> modes = parse_modes(options.modes);
  const std::vector<std::string> sizes = parse_sizes(options.sizes);
  const std::vector<const E2eExample*> examples = parse_examples(options.examples);
  const fs::path dir = examples_dir(options.examples_dir);
  const Scratch scratch;
  E2eMatrix matrix(options.settings, scratch.path());
  for (const E2eExample* example : examples) {
    const fs::path program = dir / example->name;
    if (access(program.c_str(), X_OK) != 0) throw std::runtime_error("cannot find the example " + program.string());
    for (const std::string& size : sizes) {
      for (int seed = 1; seed <= options.seeds; ++seed) matrix.run_case(*example, program, size, seed, modes);
    }
  }
  if (options.json) {
    print_e2e_json(matrix.rows());
  } else {
    print_e2e_table(matrix.rows());
  }
}

}  // namespace

void add_bench_e2e(CLI::App& bench) {
  auto options = std::make_shared<E2eOptions>();
  CLI::App* cmd = bench.add_subcommand(
      "e2e", "Run the examples on simcuda with and without --optimize: peak, simulated time, checksums");
  cmd->add_option("--examples", options->examples, "Comma-separated examples")->capture_default_str();
  cmd->add_option("--modes", options->modes, "Comma-separated modes: off, pool, swap, pool+swap (--optimize=pool,swap)")
      ->capture_default_str();
  cmd->add_option("--seeds", options->seeds, "Seeds 1..N per example and size")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--sizes", options->sizes, "Comma-separated sizes: tiny, small, default (the example's own defaults)")
      ->capture_default_str();
  cmd->add_option("--max-slowdown", options->settings.max_slowdown_pct, "--max-slowdown of the runs with swap (percent)")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
  cmd->add_option("--memory-fraction", options->settings.memory_fraction,
                  "SIMCUDA_MEMORY of train_mlp's memory-limited runs, as a fraction of its peak without tidepool "
                  "(0: no such runs)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--examples-dir", options->examples_dir, "Where the example programs are (default: next to tidepool)");
  cmd->add_flag("--json", options->json, "Print one JSON array of runs instead of the table");
  cmd->callback([options] { bench_e2e(*options); });
}

}  // namespace tidepool::cli
