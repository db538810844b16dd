// `tidepool plan` end to end, on small traces written with the trace writer.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "analyzer/plan/plan_io.h"
#include "analyzer/plan/trace_plan.h"
#include "training_trace.h"

namespace tidepool::plan {
namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

Result tidepool(const std::string& args) {
  const std::string command = std::string(TIDEPOOL_BINARY_DIR) + "/bin/tidepool " + args + " 2>&1";
  Result r;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) r.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class PlanCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tidepool-plan-cli-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(PlanCommand, WritesAPoolPlanAndASummary) {
  const testing::TrainingTrace t(5, 3);
  t.write(path("train.tpt"));
  const Result r = tidepool("plan --pool --time-limit 2 " + path("train.tpt") + " -o " + path("plan.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("iteration:   25 events (detected), 5 iterations, 100% identical"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("allocations: 9 per iteration, 9 pooled; persistent 5.86 KiB"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("pool:        arena "), std::string::npos) << r.output;
  const Plan plan = read_plan(path("plan.json"));
  PlanRequest request;
  request.pool = PoolRequest{"best", 2};
  const Plan expected = plan_from_trace(t.trace(), path("train.tpt"), request);
  EXPECT_EQ(plan.fingerprint, expected.fingerprint);
  EXPECT_EQ(plan.iteration, expected.iteration);
  EXPECT_EQ(plan.pool->arena_bytes, expected.pool->arena_bytes);
  EXPECT_EQ(plan.source.program, "train_test");
}

TEST_F(PlanCommand, ExplicitBoundaries) {
  testing::TrainingTrace(3, 2).write(path("t.tpt"));
  Result r = tidepool("plan --pool --algorithm smartpool --iteration-marker step " + path("t.tpt") + " -o " + path("p.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(at each NVTX range 'step'), 3 iterations"), std::string::npos) << r.output;
  EXPECT_EQ(read_plan(path("p.json")).pool->solver, "smartpool");
  r = tidepool("plan --pool --iteration-kernel adam " + path("t.tpt") + " -o " + path("p.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_plan(path("p.json")).iteration.boundary, BoundaryKind::kernel);
}

TEST_F(PlanCommand, WritesASwapPlan) {
  testing::TrainingTrace(4, 3, 64u << 20, 20'000'000).write(path("big.tpt"));
  const Result r = tidepool("plan --swap --max-slowdown 5 --link nvlink-c2c " + path("big.tpt") + " -o " + path("s.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("swap:        "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" with best over nvlink-c2c, planned peak "), std::string::npos) << r.output;
  const Plan plan = read_plan(path("s.json"));
  EXPECT_FALSE(plan.pool);
  ASSERT_TRUE(plan.swap);
  EXPECT_FALSE(plan.swap->operations.empty());
  EXPECT_NE(tidepool("plan --swap --budget 1000 --max-slowdown 5 " + path("big.tpt") + " -o " + path("s.json")).exit_code, 0);
}

TEST_F(PlanCommand, ClearOneLineErrors) {
  testing::TrainingTrace(1, 2).write(path("once.tpt"));
  testing::TrainingTrace(3, 2).write(path("t.tpt"));
  Result r = tidepool("plan " + path("t.tpt") + " -o " + path("p.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output, "tidepool: plan: nothing to plan; give --pool and/or --swap\n");
  r = tidepool("plan --pool " + path("missing.tpt") + " -o " + path("p.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.output.starts_with("tidepool: " + path("missing.tpt") + ": cannot open")) << r.output;
  r = tidepool("plan --pool " + path("once.tpt") + " -o " + path("p.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output,
            "tidepool: no repeating iteration found in the trace; name its boundary with --iteration-marker or "
            "--iteration-kernel\n");
  r = tidepool("plan --pool --iteration-marker nope " + path("t.tpt") + " -o " + path("p.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "tidepool: the NVTX range 'nope' starts no iteration in the trace; at least two are needed\n");
  r = tidepool("plan --pool --algorithm nope " + path("t.tpt") + " -o " + path("p.json"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.output.starts_with("tidepool: ")) << r.output;
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << r.output;
  r = tidepool("plan --pool " + path("t.tpt") + " -o /nonexistent/dir/p.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "tidepool: /nonexistent/dir/p.json: cannot write the plan\n");
  EXPECT_FALSE(fs::exists(path("p.json")));
}

}  // namespace
}  // namespace tidepool::plan
