// Plan files round trip: text and files, with and without the optional sections.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "analyzer/plan/plan_io.h"
#include "sample_plan.h"

namespace tidepool::plan {
namespace {

TEST(PlanIo, TextRoundTrip) {
  const Plan plan = testing::sample_plan();
  const std::string text = to_json_text(plan);
  EXPECT_EQ(parse_plan(text), plan);
  EXPECT_EQ(to_json_text(parse_plan(text)), text);
  EXPECT_NE(text.find("\"format\": \"tidepool-plan\""), std::string::npos);
}

TEST(PlanIo, OptionalSectionsMayBeAbsent) {
  Plan plan = testing::sample_plan();
  plan.swap.reset();
  EXPECT_EQ(parse_plan(to_json_text(plan)), plan);
  plan.pool.reset();
  plan.iteration.boundary = BoundaryKind::period;
  plan.iteration.name.clear();
  EXPECT_EQ(parse_plan(to_json_text(plan)), plan);
}

TEST(PlanIo, FileRoundTrip) {
  const auto path = std::filesystem::temp_directory_path() / ("tidepool-plan-io-" + std::to_string(::getpid()) + ".json");
  const Plan plan = testing::sample_plan();
  write_plan(plan, path);
  EXPECT_EQ(read_plan(path), plan);
  std::filesystem::remove(path);
}

TEST(PlanIo, MissingFileIsAClearError) {
  try {
    read_plan("/nonexistent/plan.json");
    FAIL();
  } catch (const PlanError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/plan.json: cannot open the plan");
  }
  EXPECT_THROW(write_plan(testing::sample_plan(), "/nonexistent/dir/plan.json"), PlanError);
}

}  // namespace
}  // namespace tidepool::plan
