// `tidepool bench pack` end to end: --json on a small CSV file with a known optimum, the table on
// generated instances, --generate writing an instance with the perfect packing it came from, the
// held-out generator's files, and bad input refused with one line and a non-zero exit.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/csv.h"
#include "analyzer/packing/generator.h"
#include "analyzer/packing/solver.h"
#include "tests/support/files.h"
#include "tests/support/subprocess.h"
#include "tests/support/tidepool_cli.h"

namespace tidepool::packing {
namespace {

using test_support::ProcessOutput;
using test_support::TempDir;

class BenchPackCommand : public ::testing::Test {
 protected:
  ProcessOutput tidepool(std::vector<std::string> args) {
    args.insert(args.begin(), {"bench", "pack"});
    return test_support::run_tidepool(args, dir_.path());
  }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_.path() / name).string();
    std::ofstream(path) << text;
    return path;
  }
  TempDir dir_{"tidepool-bench-pack"};
};

// b and c never overlap in time, a overlaps both: the optimum is 6 = the lower bound.
constexpr const char* kSmall = "id,lower,upper,size\na,0,10,2\nb,0,5,4\nc,5,10,4\n";

TEST_F(BenchPackCommand, JsonHasOneValidObjectPerSolver) {
  const std::string file = write("small.csv", kSmall);
  const ProcessOutput run = tidepool({"--algorithm", "all", "--time-limit", "1", "--json", file});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json rows = nlohmann::json::parse(run.out);
  ASSERT_TRUE(rows.is_array());
  ASSERT_EQ(rows.size(), solvers().size());
  for (const nlohmann::json& row : rows) {
    for (const char* key : {"file", "algorithm", "height", "lower_bound", "seconds", "valid"}) {
      EXPECT_TRUE(row.contains(key)) << key << " in " << row.dump();
    }
    EXPECT_EQ(row["file"], file);
    EXPECT_EQ(row["lower_bound"], 6);
    EXPECT_TRUE(row["valid"].get<bool>()) << row.dump();
    EXPECT_GE(row["height"].get<long long>(), 6);
    EXPECT_GE(row["seconds"].get<double>(), 0.0);
  }
  const auto best = std::ranges::find_if(rows, [](const nlohmann::json& row) { return row["algorithm"] == "best"; });
  ASSERT_NE(best, rows.end());
  EXPECT_EQ((*best)["height"], 6);
}

TEST_F(BenchPackCommand, PrintsATableForGeneratedInstances) {
  const ProcessOutput run = tidepool({"--algorithm", "best", "--time-limit", "2", "perfect:50:1", "refill:200:3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream lines(run.out);
  std::string header, perfect, refill;
  std::getline(lines, header);
  std::getline(lines, perfect);
  std::getline(lines, refill);
  EXPECT_NE(header.find("lower_bound"), std::string::npos) << run.out;
  EXPECT_EQ(perfect.rfind("perfect:50:1", 0), 0u) << run.out;
  EXPECT_NE(perfect.find(" 1.0000 "), std::string::npos) << run.out;  // cut instances fold at once
  EXPECT_EQ(refill.rfind("refill:200:3", 0), 0u) << run.out;
  for (const std::string& row : {perfect, refill}) EXPECT_NE(row.find(" yes"), std::string::npos) << row;
}

// The offset column of a CSV file (readers ignore it; here it is parsed by hand) is a packing of
// `problem` at the lower bound.
void expect_offset_column_packs_at_the_bound(const std::string& file, const Problem& problem) {
  std::istringstream text(test_support::read_file(file));
  std::string line;
  std::getline(text, line);
  ASSERT_EQ(line, "id,lower,upper,size,alignment,offset");
  std::vector<Bytes> offsets;
  while (std::getline(text, line)) offsets.push_back(std::stoll(line.substr(line.rfind(',') + 1)));
  ASSERT_EQ(offsets.size(), problem.items.size());
  const Verdict verdict = check(problem, {offsets, height_of(problem, offsets)});
  EXPECT_TRUE(verdict.valid) << verdict.reason;
  EXPECT_EQ(height_of(problem, offsets), lower_bound(problem));
}

// The generated file reads back as the same instance, with its perfect packing.
TEST_F(BenchPackCommand, GenerateWritesTheInstanceWithItsPerfectPacking) {
  const std::string file = (dir_.path() / "refill.csv").string();
  const ProcessOutput run = tidepool({"--generate", "refill:300:1", "-o", file});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("optimum height 4294967296"), std::string::npos) << run.err;
  const Problem problem = read_csv(file);
  EXPECT_EQ(problem.items.size(), generate_refill(300, 1).problem.items.size());
  expect_offset_column_packs_at_the_bound(file, problem);
}

// The held-out generator (scripts/bench/cut_instances.py) writes cut instances with their perfect
// packing, and bench pack reads them.
TEST_F(BenchPackCommand, HeldOutGeneratorWritesCutInstancesWithTheirPerfectPacking) {
  const std::string script = std::string(TIDEPOOL_SOURCE_DIR) + "/scripts/bench/cut_instances.py";
  for (const std::string seed : {"1", "2", "5"}) {
    const std::string file = (dir_.path() / ("cut-" + seed + ".csv")).string();
    const ProcessOutput made = test_support::run_process({"/usr/bin/env", "python3", script, "300", seed, "-o", file},
                                                         test_support::child_environment({}, {}), dir_.path());
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const Problem problem = read_csv(file);
    EXPECT_EQ(problem.items.size(), 300u);
    expect_offset_column_packs_at_the_bound(file, problem);
    const ProcessOutput packed = tidepool({"--algorithm", "best", "--time-limit", "2", file});
    EXPECT_EQ(packed.exit_code, 0) << packed.err;
  }
}

TEST_F(BenchPackCommand, RefusesBadInputWithOneLine) {
  const std::string backwards = write("backwards.csv", "id,lower,upper,size\na,5,3,10\n");
  const std::string small = write("small.csv", kSmall);
  // Sizes whose sums would overflow 64 bits (the lower bound, any stacking of the two).
  const std::string huge = write("huge.csv", "id,lower,upper,size\na,0,10,9223372036854775807\nb,0,10,9223372036854775807\n");
  const std::vector<test_support::Refusal> refusals = {
      {{"bench", "pack", huge}, 1,
       huge + ": item 'a': the sizes and alignments of the items up to this one add up to more than 2^61 bytes"},
      {{"bench", "pack", backwards}, 1, backwards + ":2: upper (3) must be greater than lower (5)"},
      {{"bench", "pack", (dir_.path() / "missing.csv").string()}, 1, "missing.csv: cannot open the file"},
      {{"bench", "pack", "--time-limit", "0", small}, 2, "--time-limit must be positive"},
      {{"bench", "pack", "--algorithm", "no-such-solver", small}, 2, "unknown packing algorithm 'no-such-solver'"},
      {{"bench", "pack", "perfect:x:1"}, 1, "bad instance spec 'perfect:x:1'"},
      {{"bench", "pack", "refill:20000001:1"}, 1, "asks for more than 20000000 items"},
      {{"bench", "pack"}, 2, "bench pack needs at least one FILE.csv"},
  };
  test_support::expect_refusals(refusals, dir_.path());
}

}  // namespace
}  // namespace tidepool::packing
