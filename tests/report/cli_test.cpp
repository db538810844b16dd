// `tidepool report` and `tidepool dump` from the shell: several ranks merged, output files, and
// one clear line for every bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "analyzer/trace/save.h"
#include "command.h"
#include "trace_builder.h"

namespace tidepool::report {
namespace {

using testing::run_command;
using testing::tidepool_binary;
using testing::TraceBuilder;

class ReportCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tidepool_report_cli_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string write_rank(int rank, uint64_t bytes) {
    TraceBuilder b(1000 + static_cast<uint32_t>(rank), rank);
    const uint64_t a = b.alloc(trace::AllocKind::device, bytes);
    b.launch("k", {a});
    b.free(a);
    const auto path = dir_ / ("rank" + std::to_string(rank) + ".trace");
    trace::save_trace(b.trace(), path);
    return path.string();
  }
  testing::CommandResult tidepool(const std::string& arguments) {
    std::string command = "'";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on a + chain
    command += tidepool_binary();
    command += "' ";
    command += arguments;
    command += " 2>&1";
    return run_command(command);
  }

  std::filesystem::path dir_;
};

TEST_F(ReportCli, RanksMergeIntoOneReportOrderedByRank) {
  const std::string r1 = write_rank(1, 300);
  const std::string r0 = write_rank(0, 200);
  const auto out = dir_ / "report.json";
  const auto result = tidepool("report --format json -o '" + out.string() + "' " + r1 + " " + r0);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output, "");
  const auto json = nlohmann::json::parse(std::ifstream(out));
  ASSERT_EQ(json.at("processes").size(), 2u);
  EXPECT_EQ(json["processes"][0]["rank"], 0);
  EXPECT_EQ(json["processes"][0]["pid"], 1000);
  EXPECT_EQ(json["processes"][0]["peak_requested_bytes"], 200);
  EXPECT_EQ(json["processes"][1]["rank"], 1);
  EXPECT_EQ(json["processes"][1]["peak_requested_bytes"], 300);
  for (const auto& p : json["processes"]) {
    for (const char* key : {"pid", "rank", "peak_requested_bytes", "allocations", "frees",
                            "kernel_launches", "leaked_bytes", "sites"}) {
      EXPECT_TRUE(p.contains(key)) << key;
    }
    EXPECT_EQ(p["allocations"], 1);
    EXPECT_EQ(p["frees"], 1);
    EXPECT_EQ(p["kernel_launches"], 1);
    EXPECT_EQ(p["leaked_bytes"], 0);
  }
  const auto text = tidepool("report " + r0 + " " + r1);
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("2 processes"), std::string::npos) << text.output;
}

TEST_F(ReportCli, BadInputsGiveOneLine) {
  const std::string missing = (dir_ / "missing.trace").string();
  auto r = tidepool("report " + missing);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "tidepool: " + missing + ": cannot open: No such file or directory\n");

  r = tidepool("dump " + dir_.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "tidepool: " + dir_.string() + ": cannot read: Is a directory\n");

  const auto not_trace = dir_ / "not.trace";
  std::ofstream(not_trace) << "hello, this is not a trace\n";
  r = tidepool("dump " + not_trace.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "tidepool: " + not_trace.string() + ": not a tidepool trace\n");

  const std::string good = write_rank(0, 100);
  std::string bytes;
  {
    std::ifstream in(good, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  bytes[bytes.size() - 3] ^= 0x40;
  const auto corrupt = dir_ / "corrupt.trace";
  std::ofstream(corrupt, std::ios::binary) << bytes;
  r = tidepool("report " + corrupt.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.output.find(": corrupt chunk at offset "), std::string::npos) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;

  r = tidepool("report --format yaml " + good);
  EXPECT_NE(r.exit_code, 0);
}

TEST_F(ReportCli, PlansSectionOnARepeatingTrace) {
  TraceBuilder b;
  const uint64_t weights = b.alloc(trace::AllocKind::device, 64 << 20);
  for (int i = 0; i < 6; ++i) {
    const uint64_t x = b.alloc(trace::AllocKind::device, 16 << 20);
    b.launch("forward", {weights, x});
    const uint64_t g = b.alloc(trace::AllocKind::device, 32 << 20);
    b.launch("backward", {weights, x, g});
    b.free(x);
    b.launch("step", {weights, g});
    b.free(g);
  }
  const auto path = dir_ / "repeating.trace";
  trace::save_trace(b.trace(), path);

  auto r = tidepool("report --solver-time 0.1 " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected : {"iteration and plans:", "  iteration: ", "pool lower bound: ",
                               "swap to host over pcie5", "paper", "best", "link bound"}) {
    EXPECT_NE(r.output.find(expected), std::string::npos) << expected << "\n" << r.output;
  }
  EXPECT_EQ(r.output.find("no iteration"), std::string::npos) << r.output;

  r = tidepool("report --format json --solver-time 0.1 --link nvlink-c2c " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto plans = nlohmann::json::parse(r.output)["processes"][0]["iteration_and_plans"];
  EXPECT_EQ(plans["iteration_found"], true);
  for (const char* key : {"iteration", "observed_peak_bytes", "lower_bound_bytes",
                          "solver_time_limit_seconds", "pool_solvers", "swap"}) {
    EXPECT_TRUE(plans.contains(key)) << key;
  }
  EXPECT_EQ(plans["iteration"]["allocations"], 2);
  EXPECT_FALSE(plans["pool_solvers"].empty());
  EXPECT_EQ(plans["swap"]["link"], "nvlink-c2c");
  ASSERT_EQ(plans["swap"]["results"].size(), 6u);
  for (const char* key : {"planner", "max_slowdown_pct", "peak_bytes", "simulated_slowdown_pct",
                          "bytes_moved", "floor_bytes", "link_bound_bytes"}) {
    EXPECT_TRUE(plans["swap"]["results"][0].contains(key)) << key;
  }

  r = tidepool("report --no-plans " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("iteration and plans"), std::string::npos) << r.output;
}

TEST_F(ReportCli, PlansSectionSaysWhyWithoutIteration) {
  const std::string once = write_rank(0, 100);
  auto r = tidepool("report " + once);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("iteration and plans:\n  no iteration: "), std::string::npos) << r.output;
  r = tidepool("report --format json " + once);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto plans = nlohmann::json::parse(r.output)["processes"][0]["iteration_and_plans"];
  EXPECT_EQ(plans["iteration_found"], false);
  EXPECT_FALSE(plans["no_iteration_reason"].get<std::string>().empty());
}

TEST_F(ReportCli, PlansSectionWithANamedIterationBoundary) {
  TraceBuilder b;
  const uint64_t weights = b.alloc(trace::AllocKind::device, 8 << 20);
  for (uint64_t step = 1; step <= 3; ++step) {
    b.add(trace::RangePush{.name_id = b.string("step")});
    const uint64_t x = b.alloc(trace::AllocKind::device, step << 20);  // no repeating period
    b.launch("forward", {weights, x});
    b.free(x);
    b.add(trace::RangePop{});
  }
  const auto path = dir_ / "marked.trace";
  trace::save_trace(b.trace(), path);
  auto r = tidepool("report --solver-time 0.1 " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no iteration: "), std::string::npos) << r.output;
  r = tidepool("report --solver-time 0.1 --iteration-marker step " + path.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("(boundary: nvtx_range)"), std::string::npos) << r.output;
  r = tidepool("report --iteration-marker step --iteration-kernel forward " + path.string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST_F(ReportCli, BadPlanFlagsGiveOneLine) {
  const std::string good = write_rank(0, 100);
  auto r = tidepool("report --link carrier-pigeon " + good);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.output.rfind("tidepool: ", 0), 0u) << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  r = tidepool("report --solver-time -1 " + good);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
}

TEST_F(ReportCli, TruncatedTraceWarns) {
  const std::string good = write_rank(0, 100);
  std::filesystem::resize_file(good, std::filesystem::file_size(good) - 2);
  const auto r = tidepool("report " + good);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("is truncated"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace tidepool::report
