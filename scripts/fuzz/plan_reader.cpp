// libFuzzer target: any bytes, read as a plan file (parse_plan), either read or fail with
// PlanError; a plan that reads must write and read back to the same text. Built and run by
// scripts/fuzz/run.sh (its first find: a number past a double's range escaped as nlohmann's
// out_of_range, session 49).
#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/plan/plan_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tidepool::plan;
  try {
    const std::string text =
        to_json_text(parse_plan(std::string_view(reinterpret_cast<const char*>(data), size)));
    if (to_json_text(parse_plan(text)) != text) __builtin_trap();
  } catch (const PlanError&) {
  }
  return 0;
}
