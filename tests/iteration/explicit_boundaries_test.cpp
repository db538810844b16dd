// detect_by_nvtx_range and detect_by_kernel: boundaries the user names.
#include <gtest/gtest.h>

#include <stdexcept>

#include "analyzer/iteration/detection.h"
#include "stream_builder.h"

namespace tidepool::iteration {
namespace {

using testing::StreamBuilder;

TEST(DetectByNvtxRange, EachPushStartsAnIteration) {
  StreamBuilder b;
  b.prologue(3);
  const std::size_t prologue = b.size();
  for (int i = 0; i < 5; ++i) {
    b.mark("train_step");
    b.training_step(3, /*warm_up=*/i == 0);
  }
  const auto d = detect_by_nvtx_range(b.stream(), "train_step");
  EXPECT_EQ(d.kind, BoundaryKind::nvtx_range);
  EXPECT_EQ(d.boundary_name, "train_step");
  EXPECT_EQ(d.first_boundary(), prologue);
  ASSERT_EQ(d.iterations.size(), 5u);  // the last one is whole: identical to the others
  EXPECT_EQ(d.exact, 4u);              // the warm-up differs
  EXPECT_EQ(d.reference, 4u);
  EXPECT_EQ(d.period, d.iterations[4].size());
  EXPECT_GT(d.iterations[0].size(), d.period);
}

TEST(DetectByNvtxRange, ACutShortLastIterationIsNotCounted) {
  StreamBuilder b;
  for (int i = 0; i < 3; ++i) {
    b.mark("step");
    b.training_step(2);
  }
  b.mark("step");
  b.launch("embedding");
  const auto d = detect_by_nvtx_range(b.stream(), "step");
  EXPECT_EQ(d.iterations.size(), 3u);
  EXPECT_EQ(d.exact, 3u);
}

TEST(DetectByKernel, EachLaunchStartsAnIteration) {
  StreamBuilder b;
  b.prologue(2);
  for (int i = 0; i < 4; ++i) b.training_step(2);
  const auto d = detect_by_kernel(b.stream(), "embedding");
  EXPECT_EQ(d.kind, BoundaryKind::kernel);
  EXPECT_EQ(d.first_boundary(), b.size() - 4 * d.period);
  EXPECT_EQ(d.iterations.size(), 4u);
  EXPECT_DOUBLE_EQ(d.regularity(), 1.0);
}

TEST(ExplicitBoundaries, UnknownOrSingleBoundariesAreClearErrors) {
  StreamBuilder b;
  b.mark("once");
  b.training_step(2);
  try {
    detect_by_nvtx_range(b.stream(), "nope");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the NVTX range 'nope' starts no iteration in the trace; at least two are needed");
  }
  try {
    detect_by_nvtx_range(b.stream(), "once");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the NVTX range 'once' starts only one iteration in the trace; at least two are needed");
  }
  EXPECT_THROW(detect_by_kernel(b.stream(), "loss"), std::runtime_error);
}

}  // namespace
}  // namespace tidepool::iteration
