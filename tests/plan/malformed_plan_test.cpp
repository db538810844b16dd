// Malformed, inconsistent and wrong-version plans are rejected with one clear line.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "analyzer/plan/plan_io.h"
#include "sample_plan.h"

namespace tidepool::plan {
namespace {

using nlohmann::json;

// The error parse_plan gives for the sample plan after `edit`.
std::string error_after(const std::function<void(json&)>& edit) {
  json j = json::parse(to_json_text(testing::sample_plan()));
  edit(j);
  try {
    parse_plan(j.dump(), "p.json");
  } catch (const PlanError& e) {
    return e.what();
  }
  return "accepted";
}

std::string error_of(std::string_view text) {
  try {
    parse_plan(text, "p.json");
  } catch (const PlanError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(MalformedPlan, NotAPlan) {
  EXPECT_EQ(error_of("{\"format\": \"tidepool-plan\", "), "p.json: not a tidepool plan (invalid JSON at byte 29)");
  EXPECT_EQ(error_of(""), "p.json: not a tidepool plan (invalid JSON at byte 1)");
  EXPECT_EQ(error_of("[1, 2]"), "p.json: not a tidepool plan (no \"format\": \"tidepool-plan\")");
  EXPECT_EQ(error_of("{\"format\": \"other\"}"), "p.json: not a tidepool plan (no \"format\": \"tidepool-plan\")");
  // nlohmann reports a number past a double's range as out_of_range, not as a parse error (found by
  // fuzzing parse_plan); it must still be a PlanError.
  EXPECT_EQ(error_of("{\"format\": 1e400}"),
            "p.json: not a tidepool plan (a number too large for JSON)");
}

TEST(MalformedPlan, WrongVersion) {
  EXPECT_EQ(error_after([](json& j) { j["version"] = 2; }),
            "p.json: unsupported plan version 2 (this tidepool reads version 1)");
  EXPECT_EQ(error_after([](json& j) { j["version"] = "1"; }), "p.json: version: expected a non-negative integer");
}

TEST(MalformedPlan, MissingOrMistypedFields) {
  EXPECT_EQ(error_after([](json& j) { j.erase("fingerprint"); }), "p.json: missing field 'fingerprint'");
  EXPECT_EQ(error_after([](json& j) { j["iteration"].erase("events"); }), "p.json: iteration: missing field 'events'");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][1]["offset"] = -256; }),
            "p.json: pool.slots[1].offset: expected a non-negative integer");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"] = 3; }), "p.json: pool.slots: expected an array");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][0]["live"] = {1}; }), "p.json: pool.slots[0].live: expected [begin, end]");
  EXPECT_EQ(error_after([](json& j) { j["iteration"]["boundary"] = "epoch"; }),
            "p.json: iteration.boundary: unknown boundary 'epoch' (period, nvtx_range or kernel)");
  EXPECT_EQ(error_after([](json& j) { j["iteration"]["anchor"][0]["kernel"] = "k"; }),
            "p.json: iteration.anchor[0]: expected exactly one of 'alloc' and 'kernel'");
  EXPECT_EQ(error_after([](json& j) { j["swap"]["operations"][0]["copy_out"] = 1; }),
            "p.json: swap.operations[0].copy_out: expected true or false");
  EXPECT_EQ(error_after([](json& j) { j["swap"]["operations"][1]["buffer"]["scope"] = "global"; }),
            "p.json: swap.operations[1].buffer.scope: unknown scope 'global' (iteration or program)");
  EXPECT_EQ(error_after([](json& j) { j["source"] = "x"; }), "p.json: source: expected an object");
}

TEST(MalformedPlan, InconsistentContents) {
  EXPECT_EQ(error_after([](json& j) { j["fingerprint"] = "fnv1a64:XYZ"; }),
            "p.json: fingerprint: expected \"fnv1a64:\" and 16 lowercase hex digits, got \"fnv1a64:XYZ\"");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][1]["offset"] = 4000; }),
            "p.json: pool.slots[1].offset: not a multiple of the alignment 256");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][1]["offset"] = 4352; }), "p.json: pool.slots[1]: ends past arena_bytes");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][2]["ordinal"] = 1; }), "p.json: pool.slots[2].ordinal: not ascending");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][2]["ordinal"] = 3; }),
            "p.json: pool.slots[2].ordinal: not below iteration.allocations");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["slots"][2]["live"] = {5, 11}; }),
            "p.json: pool.slots[2].live: not a non-empty range of the iteration's events");
  EXPECT_EQ(error_after([](json& j) { j["pool"]["lower_bound_bytes"] = 9000; }), "p.json: pool.lower_bound_bytes: above arena_bytes");
  // Slots 0 and 2 share bytes [0, 4096); make them live at the same time.
  const std::string overlap = error_after([](json& j) { j["pool"]["slots"][2]["live"] = {4, 10}; });
  EXPECT_TRUE(overlap.starts_with("p.json: pool.slots: ")) << overlap;
  EXPECT_EQ(error_after([](json& j) { j["swap"]["operations"][0]["in_at_op"] = 3; j["swap"]["operations"][0]["needed_by_op"] = 2; }),
            "p.json: swap.operations[0]: the swap-in is issued after the access it serves");
  EXPECT_EQ(error_after([](json& j) { j["swap"]["operations"][0]["needed_by_op"] = 0; }),
            "p.json: swap.operations[0]: an iteration's buffer cannot come back after the iteration ends");
  EXPECT_EQ(error_after([](json& j) { j["swap"]["operations"][1]["release_before_op"] = 4; }),
            "p.json: swap.operations[1]: an operation index not below iteration.operations");
  EXPECT_EQ(error_after([](json& j) { j["iteration"]["name"] = ""; }),
            "p.json: iteration.name: an nvtx_range or kernel boundary needs a name");
}

}  // namespace
}  // namespace tidepool::plan
