// train_mlp on simcuda: its loss and checksum equal the plain CPU reference bit for bit (and fixed
// values), runs are deterministic and seed-dependent, and simcuda's statistics show the memory
// behaviour the program promises: persistent weights and Adam state, every activation and
// gradient freed after its last use, hence a peak that follows from the flags.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/examples/mlp_reference.h"
#include "tests/examples/run_example.h"

namespace examples_test {
namespace {

std::vector<std::string> flags_of(const MlpSetup& s) {
  return {"--batch", std::to_string(s.batch), "--width",        std::to_string(s.width),
          "--depth", std::to_string(s.depth), "--steps",        std::to_string(s.steps),
          "--seed",  std::to_string(s.seed),  "--compute-rows", std::to_string(s.compute_rows)};
}

std::string hex(uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016" PRIx64, value);
  return text;
}

std::string loss_text(float loss) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", static_cast<double>(loss));
  return text;
}

// Peak of live requested bytes: the persistent parameters and Adam moments, plus the largest of
// the moments when most per-step buffers are live (see trainer.cpp for the order of allocations).
uint64_t expected_peak(const MlpSetup& s) {
  const uint64_t f = sizeof(float), b = s.batch, w = s.width, d = s.depth;
  const uint64_t activation = b * w * f, layer_grads = (w * w + w) * f;
  const uint64_t persistent = d * 3 * (w * w + w) * f;
  uint64_t step_peak = (2 * d + 1) * activation + 2 * b * f;          // after the loss kernel
  step_peak = std::max(step_peak, 2 * activation + d * layer_grads);  // gradients of layer 0
  if (d >= 2) {
    step_peak =
        std::max(step_peak, (2 * d + 1) * activation + layer_grads);  // layer d-1's input grad
    step_peak =
        std::max(step_peak, 5 * activation + (d - 1) * layer_grads);  // layer 1's input grad
  }
  return persistent + step_peak;
}

const MlpSetup kSmall{256, 128, 3, 3, 256, 1};  // every row computed
const MlpSetup kMedium{1024, 512, 4, 4, 8, 7};  // rows sampled, as by default

ExampleRun run_ok(const MlpSetup& setup) {
  ExampleRun run = run_example("train_mlp", flags_of(setup));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run;
}

TEST(TrainMlpTest, SmallConfigurationMatchesTheReference) {
  const ExampleRun run = run_ok(kSmall);
  const MlpOutcome reference = train_mlp_reference(kSmall);
  EXPECT_EQ(run.out_value("loss: "), loss_text(reference.final_loss)) << run.out;
  EXPECT_EQ(run.out_value("checksum: "), hex(reference.checksum)) << run.out;
  EXPECT_EQ(run.out_value("loss: "), "4.919863");
  EXPECT_EQ(run.out_value("checksum: "), "df903b188b571870");
}

TEST(TrainMlpTest, MediumConfigurationMatchesTheReferenceAndItsMemoryModel) {
  const ExampleRun run = run_ok(kMedium);
  const MlpOutcome reference = train_mlp_reference(kMedium);
  EXPECT_EQ(run.out_value("loss: "), loss_text(reference.final_loss)) << run.out;
  EXPECT_EQ(run.out_value("checksum: "), hex(reference.checksum)) << run.out;
  EXPECT_EQ(run.out_value("checksum: "), "2b9741d6bf1a3f5c");

  ASSERT_TRUE(run.stats.is_object()) << "no SIMCUDA_STATS file";
  const nlohmann::json books = run.bookkeeping();
  ASSERT_TRUE(books.is_object()) << run.err;
  const uint64_t d = kMedium.depth, steps = kMedium.steps;
  EXPECT_EQ(run.stats.at("peak_requested_bytes"), expected_peak(kMedium));
  EXPECT_EQ(run.stats.at("allocations"), 6 * d + steps * (6 * d + 2));
  EXPECT_EQ(run.stats.at("frees"), run.stats.at("allocations"));
  EXPECT_EQ(run.stats.at("kernel_launches"), d + steps * (8 * d - 1));
  for (const char* field : {"allocations", "frees", "peak_requested_bytes", "kernel_launches"}) {
    EXPECT_EQ(run.stats.at(field), books.at(field)) << field;
  }
  EXPECT_EQ(books.at("requested_bytes_at_exit"), 0);
}

// Shapes where each of the candidate peaks of expected_peak() is the largest.
TEST(TrainMlpTest, PeakAndCountsFollowFromTheFlagsForOtherShapes) {
  for (const MlpSetup& setup :
       {MlpSetup{8, 8, 1, 2, 8, 1}, MlpSetup{1, 1, 2, 2, 1, 1}, MlpSetup{3, 5, 3, 2, 2, 1},
        MlpSetup{17, 33, 2, 3, 17, 1}, MlpSetup{4, 64, 6, 1, 4, 1}}) {
    const ExampleRun run = run_ok(setup);
    ASSERT_TRUE(run.stats.is_object()) << "no SIMCUDA_STATS file";
    const uint64_t d = setup.depth, steps = setup.steps;
    EXPECT_EQ(run.stats.at("peak_requested_bytes"), expected_peak(setup)) << run.err;
    EXPECT_EQ(run.stats.at("allocations"), 6 * d + steps * (6 * d + 2));
    EXPECT_EQ(run.stats.at("kernel_launches"), d + steps * (8 * d - 1));
    EXPECT_EQ(run.stats.at("requested_bytes_at_exit"), 0);
  }
}

TEST(TrainMlpTest, IsDeterministicAndSeedDependent) {
  MlpSetup other_seed = kSmall;
  other_seed.seed = 2;
  const std::string first = run_ok(kSmall).out, second = run_ok(kSmall).out;
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first, second);
  EXPECT_NE(first, run_ok(other_seed).out);
}

TEST(TrainMlpTest, RejectsBadFlagsWithOneLine) {
  const ExampleRun zero_batch = run_example("train_mlp", {"--batch", "0"});
  EXPECT_EQ(zero_batch.exit_code, 2);
  EXPECT_EQ(zero_batch.err, "train_mlp: flag --batch must be between 1 and 1048576 (see --help)\n");
  const ExampleRun not_a_number = run_example("train_mlp", {"--width", "wide"});
  EXPECT_EQ(not_a_number.exit_code, 2);
  EXPECT_EQ(not_a_number.err,
            "train_mlp: flag --width wants an integer, got 'wide' (see --help)\n");
}

TEST(TrainMlpTest, RunningOutOfDeviceMemoryIsOneLineAndExitStatusOne) {
  const ExampleRun run = run_example("train_mlp", flags_of(kMedium), {"SIMCUDA_MEMORY=8M"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.err.starts_with("train_mlp: ")) << run.err;
  EXPECT_NE(run.err.find("CUDA_ERROR_OUT_OF_MEMORY"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

}  // namespace
}  // namespace examples_test
