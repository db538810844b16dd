// minimalloc's CSV format: reading, writing, round trips and clear errors for malformed files.
#include <gtest/gtest.h>

#include <sstream>

#include "analyzer/packing/csv.h"

namespace tidepool::packing {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_csv(text, "in.csv");
  } catch (const CsvError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PackingCsv, ReadsMinimallocFormat) {
  const Problem problem = parse_csv("id,lower,upper,size\n0,0,3,4\nb7,3,9,2\n", "in.csv");
  ASSERT_EQ(problem.items.size(), 2u);
  EXPECT_EQ(problem.items[0], (Item{"0", 4, 1, {{0, 3}}}));
  EXPECT_EQ(problem.items[1], (Item{"b7", 2, 1, {{3, 9}}}));
}

TEST(PackingCsv, ReadsAlignmentAndIgnoresOffsets) {
  const Problem problem =
      parse_csv("id,lower,upper,size,alignment,offset\r\n1,0,3,4,256,1024\r\n\n", "in.csv");
  ASSERT_EQ(problem.items.size(), 1u);
  EXPECT_EQ(problem.items[0], (Item{"1", 4, 256, {{0, 3}}}));
  const Problem offsets_only = parse_csv("id,lower,upper,size,offset\n1,0,3,4,8\n", "in.csv");
  EXPECT_EQ(offsets_only.items[0].alignment, 1);
}

TEST(PackingCsv, RowsSharingAnIdAreOneItemWithSeveralIntervals) {
  const Problem problem = parse_csv("id,lower,upper,size\nx,6,9,5\ny,0,9,1\nx,0,2,5\n", "in.csv");
  ASSERT_EQ(problem.items.size(), 2u);
  EXPECT_EQ(problem.items[0], (Item{"x", 5, 1, {{0, 2}, {6, 9}}}));
}

TEST(PackingCsv, RoundTripWithAndWithoutOffsets) {
  const Problem problem{{{"a", 4, 256, {{0, 2}, {5, 7}}}, {"b", 300, 1, {{1, 6}}}}};
  std::ostringstream plain;
  write_csv(plain, problem);
  EXPECT_EQ(parse_csv(plain.str(), "out.csv").items, problem.items);
  const Solution solution{{0, 512}, 812};
  std::ostringstream placed;
  write_csv(placed, problem, &solution);
  EXPECT_EQ(placed.str(),
            "id,lower,upper,size,alignment,offset\na,0,2,4,256,0\na,5,7,4,256,0\nb,1,6,300,1,512\n");
  EXPECT_EQ(parse_csv(placed.str(), "out.csv").items, problem.items);
}

TEST(PackingCsv, MalformedFilesGiveTheLineAndTheReason) {
  EXPECT_EQ(error_of(""), "in.csv:1: no header line (expected id,lower,upper,size)");
  EXPECT_EQ(error_of("id,size\n"), "in.csv:1: the header must start with id,lower,upper,size");
  EXPECT_EQ(error_of("id,lower,upper,size,colour\n"),
            "in.csv:1: unknown or repeated column 'colour' (expected alignment and/or offset)");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,3,4\n1,0,3\n"), "in.csv:3: expected 4 fields, got 3");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,x3,4\n"), "in.csv:2: column 'upper' is not an integer: 'x3'");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,5,5,4\n"), "in.csv:2: upper (5) must be greater than lower (5)");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,5,0\n"), "in.csv:2: size must be at least 1");
  EXPECT_EQ(error_of("id,lower,upper,size,alignment\n0,0,5,4,0\n"), "in.csv:2: alignment must be at least 1");
  EXPECT_EQ(error_of("id,lower,upper,size\n,0,5,4\n"), "in.csv:2: empty id");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,5,4\n0,6,8,5\n"),
            "in.csv:3: id '0' appears again with another size or alignment");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,5,4\n0,4,8,4\n"),
            "in.csv:3: id '0' appears again with an overlapping interval");
  EXPECT_EQ(error_of("id,lower,upper,size\n0,0,99999999999999999999,4\n"),
            "in.csv:2: column 'upper' is not an integer: '99999999999999999999'");
}

TEST(PackingCsv, MissingFileIsAnError) {
  EXPECT_THROW(read_csv("/nonexistent/packing.csv"), CsvError);
}

}  // namespace
}  // namespace tidepool::packing
