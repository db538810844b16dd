// The run matrix of `tidepool bench e2e`.
#include "bench_e2e_matrix.h"

#include <cstdio>

#include "analyzer/report/units.h"

namespace tidepool::cli {
namespace {

namespace fs = std::filesystem;

std::optional<double> ratio(const std::optional<uint64_t>& value, const std::optional<uint64_t>& reference) {
  if (!value || !reference || *reference == 0) return std::nullopt;
  return static_cast<double>(*value) / static_cast<double>(*reference);
}

}  // namespace

const std::vector<E2eExample>& e2e_examples() {
  static const std::vector<E2eExample> examples = {
      {"train_mlp", {"--batch", "64", "--width", "32", "--depth", "2", "--steps", "12"},
       {"--batch", "512", "--width", "128", "--depth", "3", "--steps", "12"}, true},
      {"multistream", {"--stages", "2", "--iterations", "12", "--elements", "4096"},
       {"--iterations", "12", "--elements", "65536"}, false},
      {"async_alloc", {"--iterations", "16", "--elements", "4096"}, {"--iterations", "16", "--elements", "65536"},
       false},
      {"procaddress", {"--iterations", "12", "--elements", "4096"}, {"--iterations", "12", "--elements", "65536"},
       false},
      {"dlopen_driver", {"--iterations", "12", "--elements", "4096"},
       {"--iterations", "12", "--elements", "65536"}, false},
  };
  return examples;
}

E2eMatrix::E2eMatrix(E2eSettings settings, fs::path scratch) : settings_(settings), scratch_(std::move(scratch)) {}

void E2eMatrix::run_case(const E2eExample& example, const fs::path& program, const std::string& size, int seed,
                         std::span<const std::string> modes) {
  Case c{example, program, size, seed, size == "tiny" ? example.tiny : size == "small" ? example.small : std::vector<std::string>{}};
  c.args.insert(c.args.end(), {"--seed", std::to_string(seed)});
  const E2eRunResult reference = run(c, "off", "first", 0, {}, nullptr).result;
  for (const std::string& mode : modes) {
    if (mode == "off") continue;
    const fs::path cache = fresh_dir("cache");
    run(c, mode, "first", 0, cache, &reference);
    if (example.targets) run(c, mode, "cached", 0, cache, &reference);
  }
  if (!example.targets || settings_.memory_fraction == 0 || !reference.peak_device_bytes) return;
  const auto limit = static_cast<uint64_t>(settings_.memory_fraction * static_cast<double>(*reference.peak_device_bytes));
  for (const std::string& mode : modes) run(c, mode, "first", limit, fresh_dir("cache"), &reference);
}

fs::path E2eMatrix::fresh_dir(const char* what) {
  const fs::path dir = scratch_ / (what + std::to_string(++dirs_));
  fs::create_directories(dir);
  return dir;
}

// Runs one configuration; without a reference, the run is the reference itself.
const E2eRow& E2eMatrix::run(const Case& c, const std::string& mode, const std::string& run_kind, uint64_t memory_limit,
                             const fs::path& plan_cache, const E2eRunResult* reference) {
  std::fprintf(stderr, "tidepool bench e2e: %s %s seed %d, %s, %s run%s\n", c.example.name.c_str(), c.size.c_str(),
               c.seed, mode.c_str(), run_kind.c_str(),
               memory_limit ? (", memory " + report::human_bytes(memory_limit)).c_str() : "");
  E2eRow row{c.example.name, c.size, mode, run_kind, c.seed, c.args, memory_limit};
  row.result = run_e2e({c.program, c.args, mode, settings_.max_slowdown_pct, plan_cache, memory_limit}, fresh_dir("run"));
  const E2eRunResult& ref = reference ? *reference : row.result;
  if (row.result.ok() && ref.ok()) {
    row.checksum_matches = row.result.checksum == ref.checksum;
    row.peak_ratio = ratio(row.result.peak_device_bytes, ref.peak_device_bytes);
    row.time_ratio = ratio(row.result.simulated_time_ns, ref.simulated_time_ns);
  }
  rows_.push_back(std::move(row));
  return rows_.back();
}

}  // namespace tidepool::cli
