// `tidepool bench pack`: runs packing solvers on CSV files (minimalloc's format) or generated
// instances and reports, per file and solver, the height against the lower bound, the wall time
// and the checker's verdict; `--generate SPEC -o FILE` writes a generated instance instead (with
// the perfect packing it came from as the offset column, which readers ignore).
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/csv.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/problem.h"
#include "analyzer/packing/solver.h"
#include "commands.h"
#include "errors.h"

namespace tidepool::cli {
namespace {

namespace packing = tidepool::packing;

struct BenchPackOptions {
  std::vector<std::string> inputs;
  std::string algorithm = "all";
  double time_limit = 10;
  bool json = false;
  std::string generate;
  std::string output;
};

struct Row {
  std::string file;
  std::string algorithm;
  packing::Bytes height = 0;
  packing::Bytes lower_bound = 0;
  double seconds = 0;
  packing::Verdict verdict;
};

// A CSV file, or a generator spec (packing::kGeneratorSpecs) when no such file exists.
packing::Problem load(const std::string& input) {
  if (!std::filesystem::exists(input) && packing::is_generator_spec(input)) {
    return packing::generate_from_spec(input).problem;
  }
  return packing::read_csv(input);
}

void write_generated(const BenchPackOptions& options) {
  if (!options.inputs.empty()) throw UsageError("--generate takes no input files");
  if (options.output.empty()) throw UsageError("--generate needs -o FILE.csv");
  const packing::PerfectInstance instance = packing::generate_from_spec(options.generate);
  std::ofstream out(options.output);
  if (!out) throw std::runtime_error("cannot write " + options.output);
  packing::write_csv(out, instance.problem, &instance.packing);  // its perfect packing as the offsets
  if (!out.flush()) throw std::runtime_error("cannot write " + options.output);
  std::fprintf(stderr, "%s: %zu items, optimum height %lld\n", options.output.c_str(),
               instance.problem.items.size(), static_cast<long long>(instance.optimum));
}

Row run_one(const std::string& file, const packing::Problem& problem, const packing::SolverInfo& solver,
            double time_limit) {
  Row row{file, std::string(solver.name)};
  row.lower_bound = packing::lower_bound(problem);
  const auto start = std::chrono::steady_clock::now();
  const packing::Solution solution = solver.solve(problem, packing::Deadline::after_seconds(time_limit));
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  row.height = solution.height;
  row.verdict = packing::check(problem, solution);
  return row;
}

void print_header() {
  std::printf("%-44s %-19s %16s %16s %8s %8s  %s\n", "file", "algorithm", "height", "lower_bound",
              "ratio", "seconds", "valid");
}

void print_row(const Row& row) {
  const double ratio =
      row.lower_bound > 0 ? static_cast<double>(row.height) / static_cast<double>(row.lower_bound) : 1.0;
  const std::string valid = row.verdict.valid ? "yes" : "NO: " + row.verdict.reason;
  std::printf("%-44s %-19s %16lld %16lld %8.4f %8.3f  %s\n", row.file.c_str(), row.algorithm.c_str(),
              static_cast<long long>(row.height), static_cast<long long>(row.lower_bound), ratio,
              row.seconds, valid.c_str());
  std::fflush(stdout);
}

void print_json(const std::vector<Row>& rows) {
  nlohmann::json array = nlohmann::json::array();
  for (const Row& row : rows) {
    array.push_back({{"file", row.file},
                     {"algorithm", row.algorithm},
                     {"height", row.height},
                     {"lower_bound", row.lower_bound},
                     {"seconds", row.seconds},
                     {"valid", row.verdict.valid}});
  }
  std::cout << array.dump(1) << '\n';
}

void bench_pack(const BenchPackOptions& options) {
  if (!options.generate.empty()) return write_generated(options);
  if (options.inputs.empty()) throw UsageError("bench pack needs at least one FILE.csv (or " + std::string(packing::kGeneratorSpecs) + ")");
  if (!(options.time_limit > 0)) throw UsageError("--time-limit must be positive");
  std::vector<const packing::SolverInfo*> chosen;
  if (options.algorithm == "all") {
    for (const packing::SolverInfo& solver : packing::solvers()) chosen.push_back(&solver);
  } else {
    try {
      chosen.push_back(&packing::find_solver(options.algorithm));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  std::vector<Row> rows;
  for (const std::string& input : options.inputs) {
    const packing::Problem problem = load(input);
    try {
      packing::validate(problem);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(input + ": " + e.what());
    }
    for (const packing::SolverInfo* solver : chosen) {
      rows.push_back(run_one(input, problem, *solver, options.time_limit));
      if (options.json) continue;
      if (rows.size() == 1) print_header();
      print_row(rows.back());  // one line per result, as it comes
    }
  }
  if (options.json) print_json(rows);
  for (const Row& row : rows) {
    if (!row.verdict.valid) set_exit_code(1);
  }
}

}  // namespace

void add_bench_pack(CLI::App& bench) {
  auto options = std::make_shared<BenchPackOptions>();
  CLI::App* command = bench.add_subcommand("pack", "Benchmark the packing solvers on CSV files (minimalloc format)");
  command->add_option("inputs", options->inputs, "CSV files, or generated instances " + std::string(packing::kGeneratorSpecs));
  command->add_option("--algorithm", options->algorithm, "A solver name, or all")->capture_default_str();
  command->add_option("--time-limit", options->time_limit, "Seconds per file and solver (anytime solvers)")
      ->capture_default_str();
  command->add_flag("--json", options->json, "Print one JSON array of results");
  command->add_option("--generate", options->generate,
                      "Write the generated instance " + std::string(packing::kGeneratorSpecs) +
                          " (a perfect packing of about N items, its offsets included) to -o");
  command->add_option("-o,--output", options->output, "Where --generate writes the CSV");
  command->callback([options] { bench_pack(*options); });
}

}  // namespace tidepool::cli
