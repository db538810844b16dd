// The planners on small synthetic training iterations (through a written and re-read trace):
// every plan obeys the swap rules, stays within the allowed slowdown in the simulator, `best` is
// never worse than `paper`, and the bounds hold.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

#include "analyzer/swap/from_trace.h"
#include "analyzer/swap/planner.h"
#include "analyzer/synth/networks.h"
#include "analyzer/synth/trace_output.h"
#include "analyzer/trace/reader.h"

namespace tidepool::swap {
namespace {

Model synthetic_model(const std::string& name, std::uint64_t batch, std::uint64_t seq) {
  synth::NetworkOptions options{name, batch, seq, {synth::parse_gpu("h200")}};
  const auto path = std::filesystem::temp_directory_path() /
                    ("tidepool-swap-test-" + std::to_string(::getpid()) + "-" + name + ".tpt");
  synth::write_trace(synth::build_network(options), 3, "planner_test", path);
  const trace::Trace trace = trace::read_trace(path);
  std::filesystem::remove(path);
  const auto windows = nvtx_iterations(trace, synth::kIterationRange);
  return model_from_trace(trace, windows.at(1));
}

// No swap-in after the access it serves, no swap-out before the access it follows.
void expect_rules_hold(const Model& m, const std::vector<SwapOp>& ops) {
  EXPECT_NO_THROW(check_swap_ops(m, ops));
  const auto n = static_cast<std::uint32_t>(m.ops.size());
  for (const SwapOp& op : ops) {
    const Buffer& b = m.buffers[op.buffer];
    EXPECT_LE(cyclic_steps(op.out_after, op.in_at, n), cyclic_steps(op.out_after, op.needed_by, n));
    for (const Access& a : b.accesses) {  // nothing touches the buffer while it is away
      const std::uint32_t steps = cyclic_steps(op.out_after, a.op, n);
      EXPECT_TRUE(steps >= cyclic_steps(op.out_after, op.needed_by, n)) << "access inside a swap";
    }
  }
}

class Planners : public ::testing::TestWithParam<std::string> {};

TEST_P(Planners, BestIsNeverWorseThanPaperAndKeepsTheSlowdown) {
  const Model m = GetParam() == "resnet50" ? synthetic_model("resnet50", 32, 0)
                                           : synthetic_model(GetParam(), 2, 256);
  for (const char* link_name : {"pcie5", "nvlink-c2c"}) {
    const Link link = parse_link(link_name);
    for (double pct : {0.0, 5.0}) {
      const Result paper = plan(m, {std::nullopt, pct}, Planner::paper, link);
      const Result best = plan(m, {std::nullopt, pct}, Planner::best, link);
      expect_rules_hold(m, paper.ops);
      expect_rules_hold(m, best.ops);
      EXPECT_LE(best.simulated.peak_bytes, paper.simulated.peak_bytes) << link_name << " " << pct;
      EXPECT_LE(best.slowdown_pct(), pct + 1e-6);
      EXPECT_LE(paper.slowdown_pct(), pct + 1e-6);
      EXPECT_TRUE(best.target_met);
      EXPECT_LE(best.bounds.floor_bytes, best.bounds.link_bound_bytes);
      EXPECT_LE(best.bounds.link_bound_bytes, best.simulated.peak_bytes) << link_name << " " << pct;
      EXPECT_LE(best.simulated.peak_bytes, best.baseline.peak_bytes);
      EXPECT_LT(best.simulated.peak_bytes, best.baseline.peak_bytes) << "nothing gained on " << link_name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Networks, Planners, ::testing::Values("resnet50", "bert-large", "gpt2-xl"));

// Beside a pool (a static arena), every figure is simulated so; `best` is still never worse than
// `paper`, keeps the slowdown, and is never worse than its plan made without the arena in view.
TEST(Planner, BesideAStaticArenaBestPlansForTheArena) {
  const Model m = synthetic_model("resnet50", 32, 0);
  for (const auto& [link_name, pct] : {std::pair{"pcie5", 5.0}, std::pair{"nvlink-c2c", 0.0}}) {
    const Link link = parse_link(link_name);
    const Target target{std::nullopt, pct, Placement::static_arena};
    const Result paper = plan(m, target, Planner::paper, link);
    const Result best = plan(m, target, Planner::best, link);
    expect_rules_hold(m, best.ops);
    EXPECT_EQ(best.baseline.peak_bytes, simulate(m, {}, link, Placement::static_arena).peak_bytes);
    EXPECT_EQ(best.simulated.peak_bytes, simulate(m, best.ops, link, Placement::static_arena).peak_bytes);
    EXPECT_LE(best.simulated.peak_bytes, paper.simulated.peak_bytes) << link_name << " " << pct;
    EXPECT_LE(best.slowdown_pct(), pct + 1e-6);
    EXPECT_LE(best.simulated.peak_bytes, best.baseline.peak_bytes);
    const Result unaware = plan(m, {std::nullopt, pct}, Planner::best, link);
    const Bytes unaware_peak = simulate(m, unaware.ops, link, Placement::static_arena).peak_bytes;
    EXPECT_LE(best.simulated.peak_bytes, unaware_peak) << link_name << " " << pct;
    if (pct == 0) {
      EXPECT_LT(best.simulated.peak_bytes, unaware_peak) << "the arena in view gains nothing";
    }
  }
}

TEST(Planner, ABudgetIsReachedWithTheLeastSlowdownItNeeds) {
  const Model m = synthetic_model("resnet50", 32, 0);
  const Link link = parse_link("nvlink-c2c");
  const Result free = plan(m, {std::nullopt, 0}, Planner::best, link);
  const Bytes budget = (free.baseline.peak_bytes + free.simulated.peak_bytes) / 2;
  const Result r = plan(m, {budget, 0}, Planner::best, link);
  EXPECT_TRUE(r.target_met);
  EXPECT_LE(r.simulated.peak_bytes, budget);
  EXPECT_LE(r.slowdown_pct(), 1e-6);  // reachable without slowdown
  expect_rules_hold(m, r.ops);
  const Result unreachable = plan(m, {free.bounds.floor_bytes / 2, 0}, Planner::best, link);
  EXPECT_FALSE(unreachable.target_met);
}

// Sizes from a corrupt trace whose sums would overflow 64 bits are refused, not summed.
TEST(Planner, BuffersAddingUpPast2To61BytesAreRejected) {
  Model m = synthetic_model("resnet50", 8, 0);
  EXPECT_NO_THROW(validate(m));
  ASSERT_GE(m.buffers.size(), 2U);
  m.buffers[0].size = kMaxTotalBytes / 2;
  m.buffers[1].size = kMaxTotalBytes / 2;
  try {
    validate(m);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2^61 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(plan(m, {std::nullopt, 0}, Planner::best, parse_link("pcie5")), std::invalid_argument);
}

TEST(Planner, BadTargetsAndNamesAreRejected) {
  const Model m = synthetic_model("resnet50", 8, 0);
  EXPECT_THROW(plan(m, {std::nullopt, -1}, Planner::best, parse_link("pcie5")), std::invalid_argument);
  EXPECT_THROW(parse_planner("greedy"), std::invalid_argument);
  EXPECT_EQ(parse_planner("paper"), Planner::paper);
}

}  // namespace
}  // namespace tidepool::swap
