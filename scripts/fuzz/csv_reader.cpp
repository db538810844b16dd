// libFuzzer target: any bytes, read as a packing problem in minimalloc's CSV (parse_csv), either
// read or fail with CsvError; what reads goes through the checker (every item at offset 0).
// Built and run by scripts/fuzz/run.sh.
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "analyzer/packing/checker.h"
#include "analyzer/packing/csv.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tidepool::packing;
  try {
    const Problem problem =
        parse_csv(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.csv");
    Solution stacked;
    stacked.offsets.assign(problem.items.size(), 0);
    for (const Item& item : problem.items) stacked.height = std::max(stacked.height, item.size);
    (void)check(problem, stacked);
  } catch (const CsvError&) {
  }
  return 0;
}
