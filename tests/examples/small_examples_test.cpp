// The small examples on simcuda: each prints the checksum its plain CPU reference predicts (and a
// fixed value, so a change to the math shows), is deterministic and seed-dependent, and simcuda's
// statistics agree with the program's own bookkeeping of its allocations, frees and launches.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "tests/examples/run_example.h"
#include "tests/examples/small_reference.h"

namespace examples_test {
namespace {

struct SmallExample {
  std::string name;
  std::vector<std::string> args;  // besides --seed
  std::function<uint64_t(uint64_t seed)> reference;
  std::string fixed_checksum;  // for --seed 1
  std::vector<std::string> env = {};
};

void PrintTo(const SmallExample& example, std::ostream* out) {
  *out << example.name;
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

std::vector<std::string> with_seed(const SmallExample& example, int seed) {
  std::vector<std::string> args = example.args;
  args.insert(args.end(), {"--seed", std::to_string(seed)});
  return args;
}

ExampleRun run_ok(const SmallExample& example, int seed) {
  ExampleRun run = run_example(example.name, with_seed(example, seed), example.env);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run;
}

class SmallExampleTest : public testing::TestWithParam<SmallExample> {};

TEST_P(SmallExampleTest, PrintsTheReferenceChecksum) {
  const SmallExample& example = GetParam();
  const ExampleRun run = run_ok(example, 1);
  EXPECT_EQ(run.out_value("checksum: "), hex(example.reference(1))) << run.out;
  EXPECT_EQ(run.out_value("checksum: "), example.fixed_checksum) << run.out;
}

TEST_P(SmallExampleTest, IsDeterministicAndSeedDependent) {
  const SmallExample& example = GetParam();
  const std::string first = run_ok(example, 1).out;
  const std::string second = run_ok(example, 1).out;
  const std::string other_seed = run_ok(example, 2).out;
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, second);
  EXPECT_NE(first, other_seed);
}

TEST_P(SmallExampleTest, SimcudaStatisticsMatchTheProgramsBookkeeping) {
  const ExampleRun run = run_ok(GetParam(), 1);
  const nlohmann::json books = run.bookkeeping();
  ASSERT_TRUE(books.is_object()) << run.err;
  ASSERT_TRUE(run.stats.is_object()) << "no SIMCUDA_STATS file";
  for (const char* field : {"allocations", "frees", "peak_requested_bytes", "kernel_launches"}) {
    EXPECT_EQ(run.stats.at(field), books.at(field)) << field;
  }
  EXPECT_GT(books.at("allocations").get<uint64_t>(), 0u);
  EXPECT_EQ(books.at("allocations"), books.at("frees"));
  EXPECT_EQ(books.at("requested_bytes_at_exit"), 0);
}

TEST_P(SmallExampleTest, RejectsAnUnknownFlagWithOneLine) {
  const ExampleRun run = run_example(GetParam().name, {"--no-such-flag", "1"}, GetParam().env);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err, GetParam().name + ": unknown flag --no-such-flag (see --help)\n");
}

const SmallExample kExamples[] = {
    {"multistream",
     {"--stages", "4", "--iterations", "12", "--elements", "262144"},
     [](uint64_t seed) { return multistream_reference(4, 12, 262144, seed); },
     "fdc606806c120422"},
    {"async_alloc",
     {"--iterations", "16", "--elements", "262144"},
     [](uint64_t seed) { return async_alloc_reference(16, 262144, seed); },
     "0a4a9e5e32141114"},
    {"procaddress",
     {"--iterations", "12", "--elements", "262144"},
     [](uint64_t seed) { return table_driven_reference(12, 262144, seed); },
     "88edf92b13bb02ec"},
    {"dlopen_driver",
     {"--iterations", "12", "--elements", "262144"},
     [](uint64_t seed) { return table_driven_reference(12, 262144, seed); },
     "88edf92b13bb02ec",
     // Under AddressSanitizer, LeakSanitizer's exit-time scan of the dynamic TLS that simcuda, a
     // dlopen'ed library, left in its exited stream threads crashes the tracer ("Tracer caught
     // signal 11", a sanitizer runtime bug); skip scanning TLS. No effect without sanitizers.
     {"LSAN_OPTIONS=use_tls=0"}},
};

INSTANTIATE_TEST_SUITE_P(Examples, SmallExampleTest, testing::ValuesIn(kExamples),
                         [](const testing::TestParamInfo<SmallExample>& info) {
                           return info.param.name;
                         });

// The per-thread default stream changes where the work runs, not what it computes.
TEST(ProcAddressTest, LegacyAndPerThreadLookupsComputeTheSame) {
  const ExampleRun per_thread = run_example("procaddress", {"--per-thread", "1"});
  const ExampleRun legacy = run_example("procaddress", {"--per-thread", "0"});
  ASSERT_EQ(per_thread.exit_code, 0) << per_thread.err;
  ASSERT_EQ(legacy.exit_code, 0) << legacy.err;
  EXPECT_EQ(per_thread.out, legacy.out);
}

}  // namespace
}  // namespace examples_test
